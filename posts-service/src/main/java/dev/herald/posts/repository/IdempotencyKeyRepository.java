package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.posts.repository.UnfinishedAcceptanceRepository.UnfinishedAcceptance;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Idempotency keys of {@code POST /posts}. A claim is one statement on its own, taken once the request is valid
 * (no transaction is held open while the request runs); the claim becomes the stored answer inside the
 * transaction that accepts the post, or is given back when the request is refused. A claim whose request died is
 * taken over once it expires.
 */
@ApplicationScoped
public class IdempotencyKeyRepository {
    public static final String IN_FLIGHT = "in_flight";
    public static final String COMPLETED = "completed";

    private final Pool pool;

    public IdempotencyKeyRepository(Pool pool) {
        this.pool = pool;
    }

    /** A key as stored: who holds it, for which request, and the answer once there is one. */
    public record StoredKey(String fingerprint, String state, String claimToken, String response) {}

    /**
     * Claims the key for a validated request with this fingerprint and, in the same statement, records the
     * acceptance it starts (only when the claim is taken), so what the acceptance goes on to take elsewhere is given
     * back should this process die. Answers the claim (its token is the acceptance's) when this request now holds the
     * key, or the key as another request left it, or null when that request gave it back in between.
     */
    public Uni<StoredKey> claim(
            UnfinishedAcceptance acceptance, String fingerprint, Instant now, Instant claimExpiresAt) {
        return pool.preparedQuery("""
                        with claimed as (
                            insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                            values ($1, $2, $3, $4, 'in_flight', $5, $6, $7)
                            on conflict (workspace_id, mode, key) do update
                                set fingerprint = excluded.fingerprint, state = 'in_flight', claim_token = excluded.claim_token,
                                    post_id = null, response = null, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
                                where idempotency_keys.expires_at <= excluded.claimed_at
                            returning fingerprint, state, claim_token, response),
                        begun as (
                            insert into unfinished_acceptances
                                (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids, started_at)
                            select $8, $1, $2, $3, $5, $9, $10, $6 from claimed)
                        select fingerprint, state, claim_token, response from claimed""")
                .execute(Tuple.of(
                                acceptance.workspaceId(),
                                acceptance.mode().wireName(),
                                acceptance.idempotencyKey(),
                                fingerprint,
                                acceptance.claimToken())
                        .addOffsetDateTime(now.atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(claimExpiresAt.atOffset(ZoneOffset.UTC))
                        .addString(acceptance.postId())
                        .addArrayOfString(acceptance.reservationIds().toArray(String[]::new))
                        .addArrayOfString(acceptance.profileIds().toArray(String[]::new)))
                .flatMap(claimed -> claimed.rowCount() == 1
                        ? Uni.createFrom().item(stored(claimed))
                        : find(acceptance.workspaceId(), acceptance.mode(), acceptance.idempotencyKey(), now));
    }

    /** The key as a request left it, or null when no request holds it now (never used, given back, or expired). */
    public Uni<StoredKey> find(String workspaceId, Mode mode, String key, Instant now) {
        return pool.preparedQuery("""
                        select fingerprint, state, claim_token, response from idempotency_keys
                        where workspace_id = $1 and mode = $2 and key = $3 and expires_at > $4""")
                .execute(Tuple.of(workspaceId, mode.wireName(), key, now.atOffset(ZoneOffset.UTC)))
                .map(IdempotencyKeyRepository::stored);
    }

    /** Gives a refused request's claim back, so a corrected retry with the same key is accepted. */
    public Uni<Void> release(String workspaceId, Mode mode, String key, String claimToken) {
        return pool.preparedQuery("""
                        delete from idempotency_keys
                        where workspace_id = $1 and mode = $2 and key = $3 and claim_token = $4 and state = 'in_flight'""")
                .execute(Tuple.of(workspaceId, mode.wireName(), key, claimToken))
                .replaceWithVoid();
    }

    /** Forgets keys past their retention; the number removed. */
    public Uni<Integer> purgeExpired(Instant now, int limit) {
        return pool.preparedQuery("""
                        delete from idempotency_keys where ctid in
                            (select ctid from idempotency_keys where expires_at <= $1 limit $2)""")
                .execute(Tuple.tuple()
                        .addOffsetDateTime(now.atOffset(ZoneOffset.UTC))
                        .addInteger(limit))
                .map(RowSet::rowCount);
    }

    private static StoredKey stored(RowSet<Row> rows) {
        if (rows.rowCount() == 0) {
            // Never claimed, or deleted between the insert and the read (a refused request gave it back).
            return null;
        }
        Row row = rows.iterator().next();
        return new StoredKey(
                row.getString("fingerprint"),
                row.getString("state"),
                row.getString("claim_token"),
                row.getString("response"));
    }
}
