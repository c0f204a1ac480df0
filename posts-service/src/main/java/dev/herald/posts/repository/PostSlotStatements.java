package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.SqlParameters;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * The queue slots next_slot posts hold ({@code V12__post_slots.sql}): one post per slot and profile, enforced by the
 * table's unique key, so racing requests can only ever take distinct slots.
 */
@ApplicationScoped
public class PostSlotStatements {
    private static final NamedStatement TAKEN = NamedStatement.of("""
            select slot_at from post_slots
            where workspace_id = :workspace_id and mode = :mode and profile_id = :profile_id
                and slot_at between :from and :to""");

    /**
     * Claims the slot for a post whose acceptance is still under way: the unfinished-acceptance row is share-locked, so
     * the claim either commits before {@code AbandonedAcceptanceJob} locks that row (which then frees it) or finds the
     * acceptance abandoned and claims nothing. A slot another post holds, or is claiming right now, is not taken.
     */
    private static final NamedStatement CLAIM = NamedStatement.of("""
            with pending as (
                select post_id from unfinished_acceptances where post_id = :post_id and not abandoned for share),
            claimed as (
                insert into post_slots (post_id, workspace_id, mode, profile_id, slot_at, claimed_at)
                select post_id, :workspace_id, :mode, :profile_id, :slot_at, :claimed_at from pending
                on conflict do nothing
                returning post_id)
            select (select count(*) from pending) as pending, (select count(*) from claimed) as claimed""");

    /** Frees the post's slot; used by the give-back of a failed acceptance and by the abandonment of a dead one. */
    static final NamedStatement RELEASE = NamedStatement.of("delete from post_slots where post_id = :post_id");

    private final Pool pool;

    public PostSlotStatements(Pool pool) {
        this.pool = pool;
    }

    /** What came of a claim: the slot is the post's, another post's, or the acceptance was abandoned meanwhile. */
    public enum Claim {
        CLAIMED,
        TAKEN,
        ABANDONED
    }

    /** The slot instants of the profile that posts hold from {@code from} to {@code to}. */
    public Uni<Set<Instant>> taken(String workspaceId, Mode mode, String profileId, Instant from, Instant to) {
        return TAKEN.parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("profile_id", profileId)
                .set("from", from)
                .set("to", to)
                .execute(pool)
                .map(rows -> {
                    Set<Instant> taken = new HashSet<>();
                    rows.forEach(row -> taken.add(SqlParameters.instant(row, "slot_at")));
                    return taken;
                });
    }

    public Uni<Claim> claim(
            String postId, String workspaceId, Mode mode, String profileId, Instant slotAt, Instant now) {
        return CLAIM.parameters()
                .set("post_id", postId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("profile_id", profileId)
                .set("slot_at", slotAt)
                .set("claimed_at", now)
                .execute(pool)
                .map(rows -> {
                    Row row = rows.iterator().next();
                    if (row.getLong("pending") == 0) {
                        return Claim.ABANDONED;
                    }
                    return row.getLong("claimed") > 0 ? Claim.CLAIMED : Claim.TAKEN;
                });
    }

    /** Frees the post's slot, if it holds one, on its own. */
    public Uni<Void> release(String postId) {
        return RELEASE.parameters().set("post_id", postId).execute(pool).replaceWithVoid();
    }

    /** The same inside the caller's Hibernate transaction (a cancellation frees the slot with the post's status). */
    public Uni<Void> releaseInTransaction(String postId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("delete from post_slots where post_id = ?1")
                        .setParameter(1, postId)
                        .executeUpdate())
                .replaceWithVoid();
    }
}
