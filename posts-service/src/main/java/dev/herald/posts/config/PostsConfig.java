package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "herald.posts")
public interface PostsConfig {
    /** How long an accepted request's Idempotency-Key answers replays (DESIGN section 3: 24 h). */
    @WithDefault("24h")
    Duration idempotencyRetention();

    /** How long a key stays claimed by a request that never finished (its process died) before another may take it. */
    @WithDefault("60s")
    Duration idempotencyClaimTimeout();

    /** How often the dispatcher looks for due posts (it also runs right after a post is accepted). */
    @WithDefault("200ms")
    Duration dispatchInterval();

    /** Posts handed to delivery per dispatcher statement. */
    @WithDefault("500")
    int dispatchBatchSize();

    /** How often profile holds of final posts are given back to profiles-service. */
    @WithDefault("1s")
    Duration holdReleaseInterval();

    /** How often acceptances whose request died are looked for, to give their reservations and holds back. */
    @WithDefault("10s")
    Duration abandonedAcceptanceInterval();

    /** How often Idempotency-Keys past their retention (or abandoned claims past their timeout) are deleted. */
    @WithDefault("10m")
    Duration idempotencyPurgeInterval();

    /**
     * A publishing post none of whose publishing targets delivery-worker has answered this long after its handover is
     * handed over once more ({@code HandoverWatchdog}): a lost {@code post.accepted} then reaches the worker, which
     * settles it (a handover this late fails {@code delivery_timeout}); a target the worker has is left to it. At least
     * the worker's {@code herald.delivery.watchdog.due-grace}, so a repeated handover is never attempted late.
     */
    @WithDefault("10m")
    Duration handoverTimeout();

    /** How often posts past {@link #handoverTimeout()} are looked for. */
    @WithDefault("1m")
    Duration handoverCheckInterval();

    /**
     * How long an account fence of {@code PATCH /accounts/{id}} stays in force when accounts-service never lifts it (it
     * died): well beyond the move's own calls (a few seconds at most, each with a 3 s timeout).
     */
    @WithDefault("30s")
    Duration accountFenceExpiry();

    /**
     * How much earlier than its request's start (on this replica's clock) an acceptance counts a lifted fence as
     * concerning it: the replicas' clocks may differ by this much (the fence is lifted on another replica's clock).
     */
    @WithDefault("2s")
    Duration accountFenceClockSkew();
}
