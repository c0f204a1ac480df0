package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.posts.model.CommentEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
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
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list().map(UniqueRow::of);
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

    /**
     * Inserts new comments in one statement (a published test target's simulated audience arrives three at a time;
     * one insert each cost a statement apiece on the finalization path of every test post). The rows are not
     * attached to the session: nothing in the inserting transaction reads them back.
     */
    public Uni<Void> insertAll(List<CommentEntity> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder sql = new StringBuilder("""
                insert into comments (id, workspace_id, mode, account_id, post_id, platform, parent_id, text,
                                      author_name, author_username, from_account, created_at, provider_comment_id)
                values\s""");
        int columns = 13;
        for (int row = 0; row < rows.size(); row++) {
            sql.append(row == 0 ? "(" : ", (");
            for (int column = 1; column <= columns; column++) {
                int position = row * columns + column;
                // A null parameter has no type the driver can send; the optional text columns bind '' for none.
                boolean optional = column == 7 || column == 13;
                sql.append(column == 1 ? "" : ", ").append(optional ? "nullif(?" + position + ", '')" : "?" + position);
            }
            sql.append(')');
        }
        return Panache.getSession().flatMap(session -> {
            var insert = session.createNativeQuery(sql.toString());
            for (int row = 0; row < rows.size(); row++) {
                CommentEntity comment = rows.get(row);
                int at = row * columns;
                insert.setParameter(at + 1, comment.id)
                        .setParameter(at + 2, comment.workspaceId)
                        .setParameter(at + 3, comment.mode)
                        .setParameter(at + 4, comment.accountId)
                        .setParameter(at + 5, comment.postId)
                        .setParameter(at + 6, comment.platform)
                        .setParameter(at + 7, comment.parentId == null ? "" : comment.parentId)
                        .setParameter(at + 8, comment.text)
                        .setParameter(at + 9, comment.authorName)
                        .setParameter(at + 10, comment.authorUsername)
                        .setParameter(at + 11, comment.fromAccount)
                        .setParameter(at + 12, comment.createdAt)
                        .setParameter(at + 13, comment.providerCommentId == null ? "" : comment.providerCommentId);
            }
            return insert.executeUpdate();
        }).replaceWithVoid();
    }

    /**
     * Stores a live comment as its platform reports it now: a new row, or the text and author of the row with the
     * same id (derived from account and provider id, so concurrent reads agree). Its parent is linked when stored
     * already (parents are stored first); a parent older than what the platform listed stays unlinked.
     */
    public Uni<Void> upsertLive(CommentEntity comment) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("""
                        insert into comments (id, workspace_id, mode, account_id, post_id, platform, parent_id, text,
                                              author_name, author_username, from_account, created_at, provider_comment_id)
                        values (?1, ?2, ?3, ?4, ?5, ?6, (select p.id from comments p where p.id = nullif(?7, '')), ?8,
                                ?9, ?10, ?11, ?12, ?13)
                        on conflict (id) do update set text = excluded.text, author_name = excluded.author_name,
                            author_username = excluded.author_username, from_account = excluded.from_account,
                            parent_id = coalesce(excluded.parent_id, comments.parent_id)""")
                .setParameter(1, comment.id)
                .setParameter(2, comment.workspaceId)
                .setParameter(3, comment.mode)
                .setParameter(4, comment.accountId)
                .setParameter(5, comment.postId)
                .setParameter(6, comment.platform)
                .setParameter(7, comment.parentId == null ? "" : comment.parentId)
                .setParameter(8, comment.text)
                .setParameter(9, comment.authorName)
                .setParameter(10, comment.authorUsername)
                .setParameter(11, comment.fromAccount)
                .setParameter(12, comment.createdAt)
                .setParameter(13, comment.providerCommentId)
                .executeUpdate()
                .replaceWithVoid());
    }
}
