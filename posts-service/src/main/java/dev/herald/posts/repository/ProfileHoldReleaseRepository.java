package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;

/**
 * Profile holds to give back to profiles-service: written in the transaction that made a post final (an
 * outbox for an HTTP call), removed once profiles-service confirmed ({@link ProfileHoldReleaseStatements}).
 */
@ApplicationScoped
public class ProfileHoldReleaseRepository {
    /** Inside the caller's transaction. */
    public Uni<Void> schedule(String workspaceId, Mode mode, String postId, Collection<String> profileIds) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String profileId : profileIds) {
            chain = chain.chain(() -> Panache.getSession()
                    .flatMap(session -> session.createNativeQuery("""
                            insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
                            values (?1, ?2, ?3, ?4) on conflict do nothing""")
                            .setParameter(1, profileId)
                            .setParameter(2, postId)
                            .setParameter(3, workspaceId)
                            .setParameter(4, mode.wireName())
                            .executeUpdate()
                            .replaceWithVoid()));
        }
        return chain;
    }
}
