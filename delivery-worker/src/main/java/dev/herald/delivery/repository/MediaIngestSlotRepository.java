package dev.herald.delivery.repository;

import dev.herald.common.persistence.SqlParameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The workspaces' media ingest slots ({@code media_ingest_slots}), shared by every worker replica: a destination
 * (its idempotency token) holds one of slots {@code 0..limit-1} while its bytes move, under a lease it renews.
 */
@ApplicationScoped
public class MediaIngestSlotRepository {
    private final Pool pool;

    public MediaIngestSlotRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Takes a slot for {@code holder} until {@code leaseUntil}: the one it already holds (a repeated attempt), else a
     * free or lapsed one below {@code limit}. False when all are held.
     */
    public Uni<Boolean> take(String workspaceId, String holder, int limit, Instant now, Instant leaseUntil) {
        return pool.preparedQuery("""
                        update media_ingest_slots set leased_until = $3
                        where workspace_id = $1 and holder = $2 and slot < $4 returning slot""")
                .execute(SqlParameters.of(workspaceId, holder, leaseUntil, limit))
                .flatMap(renewed -> {
                    if (renewed.rowCount() > 0) {
                        return Uni.createFrom().item(true);
                    }
                    // Two takers of the same free slot: the second waits on the first's row, then finds it leased
                    // (the conflict's WHERE fails), gets no row back and waits its turn.
                    return pool.preparedQuery("""
                                    insert into media_ingest_slots (workspace_id, slot, holder, leased_until)
                                    select $1, s, $2, $3 from generate_series(0, $4 - 1) s
                                    where not exists (select 1 from media_ingest_slots m
                                                      where m.workspace_id = $1 and m.slot = s and m.leased_until > $5)
                                    order by s limit 1
                                    on conflict (workspace_id, slot) do update
                                        set holder = excluded.holder, leased_until = excluded.leased_until
                                        where media_ingest_slots.leased_until <= $5
                                    returning slot""")
                            .execute(SqlParameters.of(workspaceId, holder, leaseUntil, limit, now))
                            .map(taken -> taken.rowCount() > 0);
                });
    }

    /** Extends the holder's lease; false when it no longer holds a slot (it lapsed and was taken). */
    public Uni<Boolean> renew(String workspaceId, String holder, Instant leaseUntil) {
        return pool.preparedQuery(
                        "update media_ingest_slots set leased_until = $3 where workspace_id = $1 and holder = $2")
                .execute(SqlParameters.of(workspaceId, holder, leaseUntil))
                .map(rows -> rows.rowCount() > 0);
    }

    public Uni<Void> free(String workspaceId, String holder) {
        return pool.preparedQuery("delete from media_ingest_slots where workspace_id = $1 and holder = $2")
                .execute(SqlParameters.of(workspaceId, holder))
                .replaceWithVoid();
    }
}
