package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.posts.model.CommentEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** Comments, always read within one workspace and mode. */
@ApplicationScoped
public class CommentRepository implements PanacheRepositoryBase<CommentEntity, String> {

    public Uni<CommentEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName()).firstResult();
    }

    /** One page, newest first, of the comments on a post and/or an account (at least one is given). */
    public Uni<List<CommentEntity>> listPage(String workspaceId, Mode mode, String postId, String accountId,
                                             Optional<CursorPosition> after, int fetchSize) {
        StringBuilder query = new StringBuilder("workspaceId = :workspace and mode = :mode");
        Parameters parameters = Parameters.with("workspace", workspaceId).and("mode", mode.wireName());
        if (postId != null) {
            query.append(" and postId = :post");
            parameters.and("post", postId);
        }
        if (accountId != null) {
            query.append(" and accountId = :account");
            parameters.and("account", accountId);
        }
        if (after.isPresent()) {
            query.append(" and (createdAt < :afterCreated or (createdAt = :afterCreated and id < :afterId))");
            parameters.and("afterCreated", after.get().createdAt()).and("afterId", after.get().id());
        }
        return find(query.toString(), Sort.descending("createdAt", "id"), parameters).range(0, fetchSize - 1).list();
    }
}
