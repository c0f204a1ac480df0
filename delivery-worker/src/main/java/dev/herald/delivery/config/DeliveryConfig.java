package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How the worker claims, attempts and retries deliveries ({@code herald.delivery.*}); tests compress the times. */
@ConfigMapping(prefix = "herald.delivery")
public interface DeliveryConfig {

    /** Provider calls a target gets before a retryable failure becomes final. */
    @WithDefault("5")
    int maxAttempts();

    /**
     * How long a claimed delivery belongs to the worker that claimed it. It must outlast a usage check plus
     * {@link #publishTimeout()}; a worker that dies holding one delays that target by at most this long.
     */
    @WithDefault("PT60S")
    Duration lease();

    /** A provider call that has not answered by then is a retryable failure (it is repeated with the same token). */
    @WithDefault("PT30S")
    Duration publishTimeout();

    /**
     * The same for publishers that upload the media's bytes (YouTube): an upload of gigabytes takes minutes, so such a
     * call may run this long, and the delivery's lease is renewed every third of {@link #lease()} while it does.
     */
    @WithDefault("PT2H")
    Duration ingestTimeout();

    /** How often the claim loop looks for due retries and lapsed leases. */
    @WithDefault("PT0.2S")
    Duration pollInterval();

    /** How soon the claim loop looks again after a claim that took all it asked for (more may be due). */
    @WithDefault("PT0.02S")
    Duration backlogPollInterval();

    /** Rows claimed per look at most. */
    @WithDefault("50")
    int claimBatchSize();

    /** Deliveries this worker attempts at once at most; the claim loop takes no more than the free places. */
    @WithDefault("64")
    int maxConcurrentAttempts();

    /**
     * How long a published or failed delivery is kept after it completed; then it and the providers' memory of its
     * calls are deleted. At least {@code herald.processed-events.retention}, so that as long as a {@code post.accepted}
     * event could be applied again, the delivery it made is still there to refuse it a second time.
     */
    @WithDefault("P8D")
    Duration retention();

    /** How often the deliveries past {@link #retention()} are deleted. */
    @WithDefault("PT10M")
    Duration purgeInterval();

    /**
     * How long after it fell due (its scheduled time, or its acceptance) a target whose account needs re-authorization
     * waits for the account to be reconnected before it fails with {@code account_reauth_required}.
     */
    @WithDefault("PT24H")
    Duration reauthHold();

    /**
     * The longest wait between two looks at a held target: a reconnection event makes it due at once, this is the
     * fallback for a hold no event will clear (a live account that accounts-service refused before any event came).
     */
    @WithDefault("PT5M")
    Duration reauthRecheck();

    Backoff backoff();

    Sandbox sandbox();

    Reconcile reconcile();

    Watchdog watchdog();

    /** The wait before the n-th retry: a random time between half and all of min(max, base * 2^(n-1)). */
    interface Backoff {
        @WithDefault("PT1S")
        Duration base();

        @WithDefault("PT60S")
        Duration max();

        /** The longest a provider's Retry-After may hold a retry back. */
        @WithDefault("PT15M")
        Duration retryAfterMax();
    }

    /** The test-mode provider. */
    interface Sandbox {
        /** How long a {@code slow_} account's publication takes. */
        @WithDefault("PT3S")
        Duration slowDelay();
    }

    /** How uncertain deliveries are settled ({@code UncertainReconciler}). */
    interface Reconcile {
        /** How often the reconciler looks for uncertain deliveries due a look. */
        @WithDefault("PT5S")
        Duration interval();

        /** The first look after a delivery became uncertain: time for a platform that just failed to recover. */
        @WithDefault("PT30S")
        Duration firstLook();

        /** The longest wait between two looks (they double from {@link #firstLook()}). */
        @WithDefault("PT15M")
        Duration maxWait();

        /** Uncertain for longer than this, a target is settled failed ({@code publication_unconfirmed}). */
        @WithDefault("P1D")
        Duration giveUpAfter();

        /** Deliveries claimed per look at most. */
        @WithDefault("20")
        int batchSize();
    }

    /**
     * Deliveries whose next step is overdue ({@code StuckDeliveryWatchdog}): never attempted late, settled instead. The
     * graces are lateness past a step's planned time, not how long a delivery may take: a healthy slow path (a TikTok
     * status check every 30 s for hours, a Retry-After of 15 minutes, a held account's look every 5 minutes, an upload
     * renewing its lease) always has its next step planned ahead, so it is never overdue while a worker runs.
     */
    interface Watchdog {
        /** Off, the claim loop takes overdue deliveries too and attempts them late (the behaviour before the watchdog). */
        @WithDefault("true")
        boolean enabled();

        /** How often the watchdog looks for overdue deliveries. */
        @WithDefault("PT30S")
        Duration interval();

        /**
         * N: a delivery handed over this long after it fell due ({@code due_at}), or pending this long past its
         * {@code next_attempt_at}, is overdue. Above any healthy consumer lag or claim backlog (a Kafka rebalance, a
         * restarted broker: a minute or two).
         */
        @WithDefault("PT10M")
        Duration dueGrace();

        /**
         * M: a {@code publishing} delivery whose lease lapsed this long ago (no worker took it over) is overdue. Far
         * above the publish timeout (30 s), so any call made under the lapsed lease has been abandoned long since.
         */
        @WithDefault("PT15M")
        Duration leaseGrace();

        /** Deliveries settled per look at most. */
        @WithDefault("20")
        int batchSize();
    }
}
