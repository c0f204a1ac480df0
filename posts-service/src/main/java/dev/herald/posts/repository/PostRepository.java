package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.common.wire.Post;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.LockMode;

/** Posts, always read within one workspace and mode: another tenant's post simply does not exist here. */
@ApplicationScoped
public class PostRepository implements PanacheRepositoryBase<PostEntity, String> {

    public Uni<PostEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list()
                .map(UniqueRow::of);
    }

    /** A post and its targets in request order. */
    public record WithTargets(PostEntity post, List<PostTargetEntity> targets) {}

    /** The posts of {@code ids} with their targets in request order, by post id, in one query; absent ids left out. */
    public Uni<Map<String, WithTargets>> findAllWithTargets(Collection<String> ids) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select p, t from PostEntity p join PostTargetEntity t on t.postId = p.id where p.id in :ids order by p.id, t.position",
                                Object[].class)
                        .setParameter("ids", ids)
                        .getResultList())
                .map(PostRepository::withTargets);
    }

    /** Rows of (post, target), a post's rows together: each post with its targets, by post id in the rows' order. */
    private static Map<String, WithTargets> withTargets(List<Object[]> rows) {
        Map<String, WithTargets> posts = new LinkedHashMap<>();
        for (Object[] row : rows) {
            PostEntity post = (PostEntity) row[0];
            posts.computeIfAbsent(post.id, id -> new WithTargets(post, new ArrayList<>()))
                    .targets()
                    .add((PostTargetEntity) row[1]);
        }
        return posts;
    }

    /** The same, locked for the rest of the transaction. */
    public Uni<PostEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    public Uni<PostEntity> findForUpdate(String id) {
        return find("id", id).withLock(LockModeType.PESSIMISTIC_WRITE).list().map(UniqueRow::of);
    }

    /** The due-post query, by its text: Hibernate keys its plan cache and query statistics by it. */
    static final String DUE = "select p, t from PostEntity p join PostTargetEntity t on t.postId = p.id"
            + " where p.id in (select d.id from PostEntity d where d.status = ?1 and d.dueAt <= ?2"
            + " order by d.dueAt limit ?3) order by p.dueAt, p.id, t.position";

    /**
     * Up to {@code limit} queued posts whose time has come, oldest due first, with their targets in request order, in
     * one query and without a lock: the dispatcher writes each only if it is still as read ({@link
     * DispatchStatements}).
     */
    public Uni<List<WithTargets>> findDue(Instant now, int limit) {
        // HQL, not a native query mapped to PostEntity: Hibernate keys a native query's plan by its result mapping,
        // which is built anew for each call, so every run of a native entity query adds a plan to the cache (all
        // under one hash) until it evicts every other plan. This query runs five times a second.
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(DUE, Object[].class)
                        .setParameter(1, Post.QUEUED)
                        .setParameter(2, now)
                        .setParameter(3, limit)
                        .getResultList())
                .map(rows -> List.copyOf(withTargets(rows).values()));
    }

    static final String LOCK_UNANSWERED = "from PostEntity where status = ?1 and dueAt <= ?2 and dispatchedAt <= ?2"
            + " and handoverRepeatedAt is null order by dueAt";

    /**
     * Up to {@code limit} publishing posts handed over (and due) before {@code cutoff} and never handed over again,
     * locked, oldest due first; rows another replica holds are skipped.
     */
    public Uni<List<PostEntity>> lockHandedOverBefore(Instant cutoff, int limit) {
        return getSession()
                .flatMap(session -> session.createSelectionQuery(LOCK_UNANSWERED, PostEntity.class)
                        .setParameter(1, Post.PUBLISHING)
                        .setParameter(2, cutoff)
                        .setLockMode(LockMode.UPGRADE_SKIPLOCKED)
                        .setMaxResults(limit)
                        .getResultList());
    }

    /**
     * One page, newest first, {@code fetchSize} rows at most. {@code text} matches the post's text
     * case-insensitively as a plain substring; {@code platform}, {@code accountId} and {@code profileId}
     * match any of its targets.
     */
    public Uni<List<PostEntity>> listPage(
            String workspaceId, Mode mode, PostFilters filters, Optional<CursorPosition> after, int fetchSize) {
        StringBuilder query = new StringBuilder("workspaceId = :workspace and mode = :mode");
        Parameters parameters = Parameters.with("workspace", workspaceId).and("mode", mode.wireName());
        if (filters.status() != null) {
            query.append(" and status = :status");
            parameters.and("status", filters.status());
        }
        if (filters.text() != null && !filters.text().isEmpty()) {
            query.append(" and text ilike :pattern escape '\\'");
            parameters.and("pattern", "%" + escapeLike(filters.text()) + "%");
        }
        if (filters.platform() != null) {
            query.append(" and id in (select t.postId from PostTargetEntity t where t.platform = :platform)");
            parameters.and("platform", filters.platform().wireName());
        }
        if (filters.accountId() != null) {
            query.append(" and id in (select t.postId from PostTargetEntity t where t.accountId = :account)");
            parameters.and("account", filters.accountId());
        }
        if (filters.profileId() != null) {
            query.append(" and id in (select t.postId from PostTargetEntity t where t.profileId = :profile)");
            parameters.and("profile", filters.profileId());
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

    static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
