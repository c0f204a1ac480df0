package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.common.wire.Platform;
import dev.herald.posts.model.CommentEntity;
import dev.herald.posts.model.SimulatedComment;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Comments, always read within one workspace and mode. */
@ApplicationScoped
public class CommentRepository implements PanacheRepositoryBase<CommentEntity, String> {

    public Uni<CommentEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list()
                .map(UniqueRow::of);
    }

    /** One page, newest first, of the comments on a post and/or an account (at least one is given). */
    public Uni<List<CommentEntity>> listPage(
            String workspaceId,
            Mode mode,
            String postId,
            String accountId,
            Optional<CursorPosition> after,
            int fetchSize) {
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
            parameters
                    .and("afterCreated", after.get().createdAt())
                    .and("afterId", after.get().id());
        }
        return find(query.toString(), Sort.descending("createdAt", "id"), parameters)
                .range(0, fetchSize - 1)
                .list();
    }

    /**
     * Writes test mode's simulated comments for the caller's published test targets that have not received them yet
     * (of {@code postId}, of {@code accountId}, or both; null for none), and marks those targets'
     * {@code comments_read_at}; how many comments. The {@code position}-th comment of a target has id {@code cmt_} and
     * the first 24 hex characters of SHA-256 of {@code <post id>:<account id>:<position>}, and is dated
     * {@code position + 1} ms after the target published, so a read that races this one, or a comment written at
     * publication by earlier versions, is the same row ({@code on conflict do nothing}). {@code unsupported} is the
     * platform without comments.
     */
    public Uni<Integer> arriveSimulated(
            String workspaceId,
            String postId,
            String accountId,
            Instant readAt,
            List<SimulatedComment> audience,
            Platform unsupported) {
        // Each filter its own statement text, so each is planned for the index it can use.
        String filter = (postId != null ? " and t.post_id = :post" : "")
                + (accountId != null ? " and t.account_id = :account" : "");
        StringBuilder values = new StringBuilder();
        for (int position = 0; position < audience.size(); position++) {
            values.append(position == 0 ? "" : ", ")
                    .append("(%1$d, :name%1$d, :username%1$d, :text%1$d)".formatted(position));
        }
        return Panache.getSession().flatMap(session -> {
            var insert = session.createNativeQuery("""
                            with arrived as (
                                update post_targets t set comments_read_at = :readAt
                                from posts p
                                where p.id = t.post_id and p.workspace_id = :workspace and p.mode = 'test'
                                  and t.status = 'published' and t.provider_post_id is not null
                                  and t.comments_read_at is null
                                  and t.platform <> :unsupported%s
                                returning t.post_id, t.account_id, t.platform,
                                    coalesce(t.completed_at, t.updated_at) as published_at)
                            insert into comments (id, workspace_id, mode, account_id, post_id, platform, parent_id, text,
                                author_name, author_username, from_account, created_at, provider_comment_id)
                            select 'cmt_' || left(encode(sha256(convert_to(
                                       a.post_id || ':' || a.account_id || ':' || v.position, 'UTF8')), 'hex'), 24),
                                   :workspace, 'test', a.account_id, a.post_id, a.platform, null, v.text,
                                   v.author_name, v.author_username, false,
                                   a.published_at + (v.position + 1) * interval '1 millisecond', null
                            from arrived a cross join (values %s) as v(position, author_name, author_username, text)
                            on conflict (id) do nothing""".formatted(filter, values))
                    .setParameter("workspace", workspaceId)
                    .setParameter("readAt", readAt)
                    .setParameter("unsupported", unsupported.wireName());
            if (postId != null) {
                insert.setParameter("post", postId);
            }
            if (accountId != null) {
                insert.setParameter("account", accountId);
            }
            for (int position = 0; position < audience.size(); position++) {
                SimulatedComment comment = audience.get(position);
                insert.setParameter("name" + position, comment.authorName())
                        .setParameter("username" + position, comment.authorUsername())
                        .setParameter("text" + position, comment.text());
            }
            return insert.executeUpdate();
        });
    }

    /**
     * Stores a live comment as its platform reports it now: a new row, or the text and author of the row with the
     * same id (derived from account and provider id, so concurrent reads agree). Its parent is linked when stored
     * already (parents are stored first); a parent older than what the platform listed stays unlinked.
     */
    public Uni<Void> upsertLive(CommentEntity comment) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
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
