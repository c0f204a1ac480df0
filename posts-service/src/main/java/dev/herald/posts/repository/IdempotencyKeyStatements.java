package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Idempotency keys of {@code POST /posts}. A claim is one statement on its own, taken once the request is valid
 * (no transaction is held open while the request runs); the claim becomes the stored answer inside the
 * transaction that accepts the post, or is given back when the request is refused. A claim whose request died is
 * taken over once it expires.
 */
@ApplicationScoped
public class IdempotencyKeyStatements {
    public static final String IN_FLIGHT = "in_flight";
    public static final String COMPLETED = "completed";

    private static final NamedStatement CLAIM = NamedStatement.of("""
            with claimed as (
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                values (:workspace_id, :mode, :key, :fingerprint, 'in_flight', :claim_token, :now, :claim_expires_at)
                on conflict (workspace_id, mode, key) do update
                    set fingerprint = excluded.fingerprint, state = 'in_flight', claim_token = excluded.claim_token,
                        post_id = null, response = null, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
                    where idempotency_keys.expires_at <= excluded.claimed_at
                returning fingerprint, state, claim_token, response),
            begun as (
                insert into unfinished_acceptances
                    (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids, started_at)
                select :post_id, :workspace_id, :mode, :key, :claim_token, :reservation_ids, :profile_ids, :now from claimed)
            select fingerprint, state, claim_token, response from claimed""");

    private static final NamedStatement FIND = NamedStatement.of("""
            select fingerprint, state, claim_token, response from idempotency_keys
            where workspace_id = :workspace_id and mode = :mode and key = :key and expires_at > :now""");

    /** Also how {@link UnfinishedAcceptanceStatements} takes back an abandoned acceptance's claim. */
    static final NamedStatement RELEASE = NamedStatement.of("""
            delete from idempotency_keys
            where workspace_id = :workspace_id and mode = :mode and key = :key and claim_token = :claim_token and state = 'in_flight'""");

    private static final NamedStatement PURGE_EXPIRED = NamedStatement.of("""
            delete from idempotency_keys where ctid in
                (select ctid from idempotency_keys where expires_at <= :now limit :limit)""");

    private final Pool pool;

    public IdempotencyKeyStatements(Pool pool) {
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
        return CLAIM.parameters()
                .set("workspace_id", acceptance.workspaceId())
                .set("mode", acceptance.mode().wireName())
                .set("key", acceptance.idempotencyKey())
                .set("fingerprint", fingerprint)
                .set("claim_token", acceptance.claimToken())
                .set("now", now)
                .set("claim_expires_at", claimExpiresAt)
                .set("post_id", acceptance.postId())
                .set("reservation_ids", acceptance.reservationIds().toArray(String[]::new))
                .set("profile_ids", acceptance.profileIds().toArray(String[]::new))
                .execute(pool)
                .flatMap(claimed -> claimed.rowCount() == 1
                        ? Uni.createFrom().item(stored(claimed))
                        : find(acceptance.workspaceId(), acceptance.mode(), acceptance.idempotencyKey(), now));
    }

    /** The key as a request left it, or null when no request holds it now (never used, given back, or expired). */
    public Uni<StoredKey> find(String workspaceId, Mode mode, String key, Instant now) {
        return FIND.parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("key", key)
                .set("now", now)
                .execute(pool)
                .map(IdempotencyKeyStatements::stored);
    }

    /** Gives a refused request's claim back, so a corrected retry with the same key is accepted. */
    public Uni<Void> release(String workspaceId, Mode mode, String key, String claimToken) {
        return RELEASE.parameters()
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("key", key)
                .set("claim_token", claimToken)
                .execute(pool)
                .replaceWithVoid();
    }

    /** Forgets keys past their retention; the number removed. */
    public Uni<Integer> purgeExpired(Instant now, int limit) {
        return PURGE_EXPIRED
                .parameters()
                .set("now", now)
                .set("limit", limit)
                .execute(pool)
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
