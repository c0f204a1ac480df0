package dev.herald.delivery.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The workspaces' media ingest slots ({@code media_ingest_slots}), shared by every worker replica: a destination
 * (its idempotency token) holds one of slots {@code 0..limit-1} while its bytes move, under a lease it renews.
 */
@ApplicationScoped
public class MediaIngestSlotStatements {
    private static final NamedStatement RENEW_HELD = NamedStatement.of("""
            update media_ingest_slots set leased_until = :lease_until
            where workspace_id = :workspace_id and holder = :holder and slot < :limit returning slot""");

    // Two takers of the same free slot: the second waits on the first's row, then finds it leased (the conflict's
    // WHERE fails), gets no row back and waits its turn.
    private static final NamedStatement TAKE_FREE = NamedStatement.of("""
            insert into media_ingest_slots (workspace_id, slot, holder, leased_until)
            select :workspace_id, s, :holder, :lease_until from generate_series(0, :limit - 1) s
            where not exists (select 1 from media_ingest_slots m
                              where m.workspace_id = :workspace_id and m.slot = s and m.leased_until > :now)
            order by s limit 1
            on conflict (workspace_id, slot) do update
                set holder = excluded.holder, leased_until = excluded.leased_until
                where media_ingest_slots.leased_until <= :now
            returning slot""");

    private static final NamedStatement RENEW = NamedStatement.of(
            "update media_ingest_slots set leased_until = :lease_until where workspace_id = :workspace_id and holder = :holder");

    private static final NamedStatement FREE =
            NamedStatement.of("delete from media_ingest_slots where workspace_id = :workspace_id and holder = :holder");

    private final Pool pool;

    public MediaIngestSlotStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * Takes a slot for {@code holder} until {@code leaseUntil}: the one it already holds (a repeated attempt), else a
     * free or lapsed one below {@code limit}. False when all are held.
     */
    public Uni<Boolean> take(String workspaceId, String holder, int limit, Instant now, Instant leaseUntil) {
        return RENEW_HELD
                .parameters()
                .set("workspace_id", workspaceId)
                .set("holder", holder)
                .set("lease_until", leaseUntil)
                .set("limit", limit)
                .execute(pool)
                .flatMap(renewed -> {
                    if (renewed.rowCount() > 0) {
                        return Uni.createFrom().item(true);
                    }
                    return TAKE_FREE
                            .parameters()
                            .set("workspace_id", workspaceId)
                            .set("holder", holder)
                            .set("lease_until", leaseUntil)
                            .set("limit", limit)
                            .set("now", now)
                            .execute(pool)
                            .map(taken -> taken.rowCount() > 0);
                });
    }

    /** Extends the holder's lease; false when it no longer holds a slot (it lapsed and was taken). */
    public Uni<Boolean> renew(String workspaceId, String holder, Instant leaseUntil) {
        return RENEW.parameters()
                .set("workspace_id", workspaceId)
                .set("holder", holder)
                .set("lease_until", leaseUntil)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }

    public Uni<Void> free(String workspaceId, String holder) {
        return FREE.parameters()
                .set("workspace_id", workspaceId)
                .set("holder", holder)
                .execute(pool)
                .replaceWithVoid();
    }
}
