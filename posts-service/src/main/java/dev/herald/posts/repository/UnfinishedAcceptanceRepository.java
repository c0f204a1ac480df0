package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Acceptances of {@code POST /posts} between their first call to another service and their outcome: what they
 * took (publication reservations, profile holds) and under which Idempotency-Key claim, so that what a dead
 * request took is given back (see {@code V5__unfinished_acceptances.sql}). A row is written by the statement that
 * claims the key ({@link IdempotencyKeyRepository#claim}).
 */
@ApplicationScoped
public class UnfinishedAcceptanceRepository {
    private final Pool pool;

    public UnfinishedAcceptanceRepository(Pool pool) {
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
        return pool.preparedQuery("delete from unfinished_acceptances where post_id = $1")
                .execute(Tuple.of(postId))
                .replaceWithVoid();
    }

    /**
     * In one transaction, for acceptances started before {@code cutoff} and not yet abandoned (at most
     * {@code limit}; rows another replica is working on are skipped): takes back their Idempotency-Key claim, so
     * the request (should it still be running) can no longer commit its post and a retry with the same key is
     * accepted; schedules their profile holds for release; and marks them abandoned. Answers every abandoned
     * acceptance, these and earlier ones, whose reservations are still to be given back.
     */
    public Uni<List<UnfinishedAcceptance>> abandonStale(Instant cutoff, int limit) {
        return pool.withTransaction(connection -> connection
                        .preparedQuery("""
                                select post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids
                                from unfinished_acceptances where not abandoned and started_at < $1
                                order by started_at limit $2 for update skip locked""")
                        .execute(Tuple.tuple()
                                .addOffsetDateTime(cutoff.atOffset(ZoneOffset.UTC))
                                .addInteger(limit))
                        .map(UnfinishedAcceptanceRepository::acceptances)
                        .call(stale -> abandon(connection, stale)))
                .chain(() -> pool.preparedQuery("""
                                select post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids
                                from unfinished_acceptances where abandoned order by started_at limit $1""")
                        .execute(Tuple.of(limit))
                        .map(UnfinishedAcceptanceRepository::acceptances));
    }

    private static Uni<Void> abandon(SqlConnection connection, Collection<UnfinishedAcceptance> stale) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (UnfinishedAcceptance acceptance : stale) {
            chain = chain.chain(() -> connection
                            .preparedQuery("""
                                    delete from idempotency_keys
                                    where workspace_id = $1 and mode = $2 and key = $3 and claim_token = $4 and state = 'in_flight'""")
                            .execute(Tuple.of(
                                    acceptance.workspaceId(),
                                    acceptance.mode().wireName(),
                                    acceptance.idempotencyKey(),
                                    acceptance.claimToken())))
                    .chain(() -> connection
                            .preparedQuery("""
                                    insert into profile_hold_releases (profile_id, post_id, workspace_id, mode)
                                    select unnest($1::text[]), $2, $3, $4 on conflict do nothing""")
                            .execute(Tuple.tuple()
                                    .addArrayOfString(acceptance.profileIds().toArray(String[]::new))
                                    .addString(acceptance.postId())
                                    .addString(acceptance.workspaceId())
                                    .addString(acceptance.mode().wireName())))
                    .chain(() -> connection
                            .preparedQuery("update unfinished_acceptances set abandoned = true where post_id = $1")
                            .execute(Tuple.of(acceptance.postId())))
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
