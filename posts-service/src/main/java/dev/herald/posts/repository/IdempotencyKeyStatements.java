package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.StatementBatcher;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    /**
     * Claims many keys at once, each row of {@code item} one request's (no key twice: an upsert cannot change a row
     * twice), in key order so that two statements sharing keys wait on each other instead of deadlocking. A key is
     * taken when it is new or its holder's claim expired; the acceptance each claim starts is recorded with it, its
     * reservation and profile ids given as {@code (position, id)} pairs.
     */
    private static final NamedStatement CLAIM_ALL = NamedStatement.of("""
            with item as (
                select * from unnest(:workspace_ids::text[], :modes::text[], :keys::text[], :fingerprints::text[],
                        :claim_tokens::text[], :claimed_at::timestamptz[], :claim_expires_at::timestamptz[],
                        :post_ids::text[])
                    with ordinality as i(workspace_id, mode, key, fingerprint, claim_token, claimed_at, expires_at,
                        post_id, position)),
            claimed as (
                insert into idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
                select workspace_id, mode, key, fingerprint, 'in_flight', claim_token, claimed_at, expires_at
                from item order by workspace_id, mode, key
                on conflict (workspace_id, mode, key) do update
                    set fingerprint = excluded.fingerprint, state = 'in_flight', claim_token = excluded.claim_token,
                        post_id = null, response = null, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
                    where idempotency_keys.expires_at <= excluded.claimed_at
                returning fingerprint, state, claim_token, response),
            begun as (
                insert into unfinished_acceptances
                    (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids, started_at)
                select i.post_id, i.workspace_id, i.mode, i.key, i.claim_token,
                    array(select r.id from unnest(:reserved_positions::bigint[], :reserved_ids::text[])
                        with ordinality as r(position, id, n) where r.position = i.position order by r.n),
                    array(select h.id from unnest(:held_positions::bigint[], :held_ids::text[])
                        with ordinality as h(position, id, n) where h.position = i.position order by h.n),
                    i.claimed_at
                from claimed c join item i on i.claim_token = c.claim_token)
            select i.position, c.fingerprint, c.state, c.claim_token, c.response
            from claimed c join item i on i.claim_token = c.claim_token""");

    /** Claims made by one statement at most ({@link StatementBatcher}). */
    static final int MAX_PER_STATEMENT = 100;

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

    /** One request's claim: the acceptance it starts, the request's fingerprint, and when the claim expires. */
    private record Claim(UnfinishedAcceptance acceptance, String fingerprint, Instant now, Instant claimExpiresAt) {
        String key() {
            return acceptance.workspaceId() + ' ' + acceptance.mode().wireName() + ' ' + acceptance.idempotencyKey();
        }
    }

    private final StatementBatcher<Claim, StoredKey> claims =
            StatementBatcher.of(MAX_PER_STATEMENT, this::claimAll, () -> {
                Set<String> keys = new HashSet<>();
                return claim -> keys.add(claim.key());
            });

    /**
     * Claims the key for a validated request with this fingerprint and, in the same statement, records the
     * acceptance it starts (only when the claim is taken), so what the acceptance goes on to take elsewhere is given
     * back should this process die. Answers the claim (its token is the acceptance's) when this request now holds the
     * key, or the key as another request left it, or null when that request gave it back in between. Claims made
     * while one statement of them is in flight go together in the next ({@link StatementBatcher}): under load one
     * commit serves many requests.
     */
    public Uni<StoredKey> claim(
            UnfinishedAcceptance acceptance, String fingerprint, Instant now, Instant claimExpiresAt) {
        return claims.submit(new Claim(acceptance, fingerprint, now, claimExpiresAt))
                .flatMap(claimed -> claimed != null
                        ? Uni.createFrom().item(claimed)
                        : find(acceptance.workspaceId(), acceptance.mode(), acceptance.idempotencyKey(), now));
    }

    /** Per claim, in order: the key as this claim now holds it, or null when another request holds it. */
    private Uni<List<StoredKey>> claimAll(List<Claim> batch) {
        int count = batch.size();
        String[] workspaceIds = new String[count];
        String[] modes = new String[count];
        String[] keys = new String[count];
        String[] fingerprints = new String[count];
        String[] claimTokens = new String[count];
        Instant[] claimedAt = new Instant[count];
        Instant[] claimExpiresAt = new Instant[count];
        String[] postIds = new String[count];
        List<Long> reservedPositions = new ArrayList<>();
        List<String> reservedIds = new ArrayList<>();
        List<Long> heldPositions = new ArrayList<>();
        List<String> heldIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Claim claim = batch.get(i);
            UnfinishedAcceptance acceptance = claim.acceptance();
            workspaceIds[i] = acceptance.workspaceId();
            modes[i] = acceptance.mode().wireName();
            keys[i] = acceptance.idempotencyKey();
            fingerprints[i] = claim.fingerprint();
            claimTokens[i] = acceptance.claimToken();
            claimedAt[i] = claim.now();
            claimExpiresAt[i] = claim.claimExpiresAt();
            postIds[i] = acceptance.postId();
            for (String id : acceptance.reservationIds()) {
                reservedPositions.add(i + 1L);
                reservedIds.add(id);
            }
            for (String id : acceptance.profileIds()) {
                heldPositions.add(i + 1L);
                heldIds.add(id);
            }
        }
        return CLAIM_ALL
                .parameters()
                .set("workspace_ids", workspaceIds)
                .set("modes", modes)
                .set("keys", keys)
                .set("fingerprints", fingerprints)
                .set("claim_tokens", claimTokens)
                .set("claimed_at", claimedAt)
                .set("claim_expires_at", claimExpiresAt)
                .set("post_ids", postIds)
                .set("reserved_positions", reservedPositions.toArray(Long[]::new))
                .set("reserved_ids", reservedIds.toArray(String[]::new))
                .set("held_positions", heldPositions.toArray(Long[]::new))
                .set("held_ids", heldIds.toArray(String[]::new))
                .execute(pool)
                .map(rows -> NamedStatement.answersByPosition(rows, count, IdempotencyKeyStatements::stored, null));
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
        return stored(rows.iterator().next());
    }

    private static StoredKey stored(Row row) {
        return new StoredKey(
                row.getString("fingerprint"),
                row.getString("state"),
                row.getString("claim_token"),
                row.getString("response"));
    }
}
