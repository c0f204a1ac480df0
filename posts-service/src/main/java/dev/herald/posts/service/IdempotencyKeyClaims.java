package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.repository.IdempotencyKeyStatements;
import dev.herald.posts.repository.IdempotencyKeyStatements.StoredKey;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * The {@code Idempotency-Key} of {@code POST /posts}: claimed by a valid request (with the record of what its
 * acceptance is about to take), answered from its stored response on a repeat, given back when the request is refused.
 * The key's completion is written with the post ({@code AcceptanceStatements}), so it is not here.
 */
@ApplicationScoped
public class IdempotencyKeyClaims {
    private static final Logger LOG = Logger.getLogger(IdempotencyKeyClaims.class);

    private final IdempotencyKeyStatements idempotencyKeys;
    private final PostsConfig config;
    private final Clock clock;

    public IdempotencyKeyClaims(IdempotencyKeyStatements idempotencyKeys, PostsConfig config, Clock clock) {
        this.idempotencyKeys = idempotencyKeys;
        this.config = config;
        this.clock = clock;
    }

    /**
     * The key as stored once this request claimed it: its own claim (the stored claim token is {@code unfinished}'s)
     * or an earlier request's, which answers instead.
     */
    Uni<StoredKey> claim(UnfinishedAcceptance unfinished, String fingerprint) {
        return claim(unfinished, fingerprint, true);
    }

    private Uni<StoredKey> claim(UnfinishedAcceptance unfinished, String fingerprint, boolean retryIfGone) {
        Instant now = Timestamps.now(clock);
        return idempotencyKeys
                .claim(unfinished, fingerprint, now, now.plus(config.idempotencyClaimTimeout()))
                .flatMap(stored -> {
                    if (stored == null && retryIfGone) {
                        // The holder gave the key back between our insert and our read: claim again.
                        return claim(unfinished, fingerprint, false);
                    }
                    if (stored == null) {
                        return Uni.createFrom().failure(inUse());
                    }
                    return Uni.createFrom().item(stored);
                });
    }

    /**
     * For a request that is refused now: the answer of an earlier request under the same key, if there was one (a
     * stored answer holds even once the request would be refused), else {@code refusal}.
     */
    Uni<PostAcceptance> answerOrRefuse(
            String workspaceId, Mode mode, String idempotencyKey, String fingerprint, Throwable refusal) {
        return idempotencyKeys
                .find(workspaceId, mode, idempotencyKey, Timestamps.now(clock))
                .onItem()
                .ifNull()
                .failWith(refusal)
                .map(stored -> answerFromStored(stored, fingerprint));
    }

    /** Gives this request's claim back after its acceptance failed; a claim that cannot be given back expires. */
    Uni<Void> release(String workspaceId, Mode mode, String idempotencyKey, String claimToken) {
        return idempotencyKeys
                .release(workspaceId, mode, idempotencyKey, claimToken)
                .onFailure()
                .invoke(e -> LOG.warnf("could not give back idempotency key claim: %s", e.toString()))
                .onFailure()
                .recoverWithNull();
    }

    /**
     * An earlier request's answer: its stored response when it was the same request and has completed; {@code 422
     * idempotency_key_reused} for a different one, {@code 409 idempotency_key_in_use} while it still runs.
     */
    static PostAcceptance answerFromStored(StoredKey stored, String fingerprint) {
        if (!stored.fingerprint().equals(fingerprint)) {
            throw new ApiException(
                    ErrorCode.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used with a different request; use a new key for a new post.");
        }
        if (IdempotencyKeyStatements.COMPLETED.equals(stored.state())) {
            return PostAcceptance.replay(stored.response());
        }
        throw inUse();
    }

    static ApiException inUse() {
        return new ApiException(
                ErrorCode.IDEMPOTENCY_KEY_IN_USE,
                "A request with this Idempotency-Key is still being processed; retry shortly to get its answer.");
    }
}
