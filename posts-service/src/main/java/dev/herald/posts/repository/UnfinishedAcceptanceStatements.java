package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Acceptances of {@code POST /posts} between their first call to another service and their outcome: what they
 * took (publication reservations, profile holds) and under which Idempotency-Key claim, so that what a dead
 * request took is given back (see {@code V5__unfinished_acceptances.sql}). A row is written by the statement that
 * claims the key ({@link IdempotencyKeyStatements#claim}).
 */
@ApplicationScoped
public class UnfinishedAcceptanceStatements {
    private static final NamedStatement FORGET =
            NamedStatement.of("delete from unfinished_acceptances where post_id = :post_id");

    private static final NamedStatement LOCK_STALE = NamedStatement.of("""
            select post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids
            from unfinished_acceptances where not abandoned and started_at < :cutoff
            order by started_at limit :limit for update skip locked""");

    private static final NamedStatement ABANDONED = NamedStatement.of("""
            select post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids
            from unfinished_acceptances where abandoned order by started_at limit :limit""");

    private static final NamedStatement SCHEDULE_HOLD_RELEASES = NamedStatement.of("""
            insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
            select unnest(:profile_ids::text[]), :post_id, :workspace_id, :mode on conflict do nothing""");

    private static final NamedStatement MARK_ABANDONED =
            NamedStatement.of("update unfinished_acceptances set abandoned = true where post_id = :post_id");

    private final Pool pool;

    public UnfinishedAcceptanceStatements(Pool pool) {
        this.pool = pool;
    }

    /** What one acceptance took, or is about to take. */
    public record UnfinishedAcceptance(
            String postId,
            String workspaceId,
            Mode mode,
            String idempotencyKey,
            String claimToken,
            List<String> reservationIds,
            List<String> profileIds) {}

    /** Once everything the acceptance took was given back. */
    public Uni<Void> forget(String postId) {
        return FORGET.parameters().set("post_id", postId).execute(pool).replaceWithVoid();
    }

    /**
     * In one transaction, for acceptances started before {@code cutoff} and not yet abandoned (at most
     * {@code limit}; rows another replica is working on are skipped): takes back their Idempotency-Key claim, so
     * the request (should it still be running) can no longer commit its post and a retry with the same key is
     * accepted; schedules their profile holds for release; frees the queue slot a next_slot post claimed; and marks
     * them abandoned. Answers every abandoned
     * acceptance, these and earlier ones, whose reservations are still to be given back.
     */
    public Uni<List<UnfinishedAcceptance>> abandonStale(Instant cutoff, int limit) {
        return pool.withTransaction(connection -> LOCK_STALE
                        .parameters()
                        .set("cutoff", cutoff)
                        .set("limit", limit)
                        .execute(connection)
                        .map(UnfinishedAcceptanceStatements::acceptances)
                        .call(stale -> abandon(connection, stale)))
                .chain(() -> ABANDONED
                        .parameters()
                        .set("limit", limit)
                        .execute(pool)
                        .map(UnfinishedAcceptanceStatements::acceptances));
    }

    private static Uni<Void> abandon(SqlConnection connection, Collection<UnfinishedAcceptance> stale) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (UnfinishedAcceptance acceptance : stale) {
            chain = chain.chain(() -> IdempotencyKeyStatements.RELEASE
                            .parameters()
                            .set("workspace_id", acceptance.workspaceId())
                            .set("mode", acceptance.mode().wireName())
                            .set("key", acceptance.idempotencyKey())
                            .set("claim_token", acceptance.claimToken())
                            .execute(connection))
                    .chain(() -> SCHEDULE_HOLD_RELEASES
                            .parameters()
                            .set("profile_ids", acceptance.profileIds().toArray(String[]::new))
                            .set("post_id", acceptance.postId())
                            .set("workspace_id", acceptance.workspaceId())
                            .set("mode", acceptance.mode().wireName())
                            .execute(connection))
                    // A slot claimed for a next_slot post is freed now; its claim cannot come after (it share-locks
                    // this row).
                    .chain(() -> PostSlotStatements.RELEASE
                            .parameters()
                            .set("post_id", acceptance.postId())
                            .execute(connection))
                    .chain(() -> MARK_ABANDONED
                            .parameters()
                            .set("post_id", acceptance.postId())
                            .execute(connection))
                    .replaceWithVoid();
        }
        return chain;
    }

    private static List<UnfinishedAcceptance> acceptances(RowSet<Row> rows) {
        List<UnfinishedAcceptance> acceptances = new ArrayList<>();
        rows.forEach(row -> acceptances.add(acceptance(row)));
        return acceptances;
    }

    private static UnfinishedAcceptance acceptance(Row row) {
        return new UnfinishedAcceptance(
                row.getString("post_id"),
                row.getString("workspace_id"),
                Mode.fromWire(row.getString("mode")).orElseThrow(),
                row.getString("idempotency_key"),
                row.getString("claim_token"),
                Arrays.asList(row.getArrayOfStrings("reservation_ids")),
                Arrays.asList(row.getArrayOfStrings("profile_ids")));
    }
}
