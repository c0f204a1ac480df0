package dev.herald.posts.repository;

import dev.herald.common.wire.PostTarget;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.model.PostTargetKey;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/** Targets are read through their post, which was already found in the caller's tenant. */
@ApplicationScoped
public class PostTargetRepository implements PanacheRepositoryBase<PostTargetEntity, PostTargetKey> {

    public Uni<List<PostTargetEntity>> forPost(String postId) {
        return list("postId", Sort.ascending("position"), postId);
    }

    /** The targets of several posts, in one query, each post's in request order. */
    public Uni<List<PostTargetEntity>> forPosts(Collection<String> postIds) {
        if (postIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("postId in ?1", Sort.ascending("postId", "position"), postIds);
    }

    /** The account's latest published targets that the platform gave an id (live comments read them). */
    public Uni<List<PostTargetEntity>> latestPublished(String accountId, int limit) {
        return find(
                        "accountId = ?1 and status = ?2 and providerPostId is not null",
                        Sort.descending("completedAt", "postId"),
                        accountId,
                        PostTarget.PUBLISHED)
                .range(0, limit - 1)
                .list();
    }

    /** Records when the target's comments were read from its platform, which starts its freshness window. */
    public Uni<Void> markCommentsRead(String postId, String accountId, Instant at) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "update post_targets set comments_read_at = ?1 where post_id = ?2 and account_id = ?3")
                        .setParameter(1, at)
                        .setParameter(2, postId)
                        .setParameter(3, accountId)
                        .executeUpdate()
                        .replaceWithVoid());
    }
}
