package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Profile holds to give back to profiles-service: written in the transaction that made a post final (an
 * outbox for an HTTP call), removed once profiles-service confirmed.
 */
@ApplicationScoped
public class ProfileHoldReleaseRepository {
    private final Pool pool;

    public ProfileHoldReleaseRepository(Pool pool) {
        this.pool = pool;
    }

    /** A hold of one profile on one post. */
    public record HoldRelease(String profileId, String postId, String workspaceId, Mode mode) {}

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

    public Uni<List<HoldRelease>> oldest(int limit) {
        return pool.preparedQuery("""
                        select profile_id, post_id, workspace_id, mode from profile_hold_releases
                        order by created_at limit $1""").execute(Tuple.of(limit)).map(rows -> {
            List<HoldRelease> releases = new ArrayList<>();
            for (Row row : rows) {
                releases.add(new HoldRelease(
                        row.getString("profile_id"),
                        row.getString("post_id"),
                        row.getString("workspace_id"),
                        Mode.fromWire(row.getString("mode")).orElseThrow()));
            }
            return releases;
        });
    }

    public Uni<Void> done(HoldRelease release) {
        return pool.preparedQuery("delete from profile_hold_releases where profile_id = $1 and post_id = $2")
                .execute(Tuple.of(release.profileId(), release.postId()))
                .replaceWithVoid();
    }
}
