package dev.herald.posts.repository;

import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.model.PostTargetKey;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
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
}
