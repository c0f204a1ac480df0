package dev.herald.delivery.service;

import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.model.ClaimWindow;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What is stuck and what settles it, for {@link StuckDeliveryWatchdog} (pure; {@code StuckDeliveryRuleTest}). A
 * delivery is overdue when its next step is late by more than a grace: handed over more than {@code due-grace} (N)
 * after it fell due, pending more than N past its {@code next_attempt_at}, or publishing more than {@code lease-grace}
 * (M) past its lapsed lease. Lateness, not duration: every healthy slow path plans its next step ahead, so only a
 * worker that was not running (or a handover that came late) makes a delivery overdue. An overdue delivery is never
 * attempted: the claim loop's window stops where the watchdog's starts, and the watchdog settles what it claims.
 */
public final class StuckDeliveryRule {
    private final boolean enabled;
    private final Duration dueGrace;
    private final Duration leaseGrace;

    public StuckDeliveryRule(boolean enabled, Duration dueGrace, Duration leaseGrace) {
        this.enabled = enabled;
        this.dueGrace = dueGrace;
        this.leaseGrace = leaseGrace;
    }

    public static StuckDeliveryRule of(DeliveryConfig.Watchdog config) {
        return new StuckDeliveryRule(config.enabled(), config.dueGrace(), config.leaseGrace());
    }

    /** What a settled overdue delivery becomes. {@code status} is a {@link DeliveryStatus}. */
    public record Settlement(String status, String providerPostId, String url, TargetError error) {}

    /** The claim loop's window: everything due by {@code now} that is not overdue (all of it with the watchdog off). */
    public ClaimWindow onTime(Instant now) {
        if (!enabled) {
            return ClaimWindow.upTo(now);
        }
        return new ClaimWindow(now.minus(dueGrace), now, now.minus(leaseGrace), now, false);
    }

    /** The watchdog's window: pending more than N late, lease lapsed more than M ago, or taken over by it before. */
    public ClaimWindow overdue(Instant now) {
        return new ClaimWindow(
                ClaimWindow.BEGINNING, now.minus(dueGrace), ClaimWindow.BEGINNING, now.minus(leaseGrace), true);
    }

    /**
     * A delivery just handed over more than N after it fell due (a {@code post.accepted} that waited out a worker outage,
     * or a handover posts-service repeated) is overdue. Not one whose account is held: waiting for the reconnection is
     * that target's healthy slow path, bounded by its own hold deadline ({@link ReauthHold}).
     */
    public boolean lateAtIntake(LeasedDelivery delivery, Instant now) {
        return enabled
                && delivery.heldAccount() == null
                && delivery.dueAt() != null
                && delivery.dueAt().isBefore(now.minus(dueGrace));
    }

    /**
     * Whether the platform must be asked first: only when a call was ever made (the attempt is counted before the
     * call, so none counted means nothing can have been published).
     */
    public static boolean asksPlatform(LeasedDelivery delivery) {
        return delivery.attempts() > 0;
    }

    /**
     * The settlement given what the platform said ({@code looked}, null when it was not asked): published when it shows
     * the post; {@code uncertain} when it cannot say now (the {@link UncertainReconciler} asks again, within its own
     * bound); failed {@code publication_unconfirmed} when the publisher cannot look (a second post is not risked);
     * otherwise failed {@code delivery_timeout}, retryable: nothing was published, posting again is safe.
     */
    public static Settlement settle(LeasedDelivery delivery, PublishOutcome looked) {
        if (looked == null) {
            return failed(timeout(
                    delivery,
                    "no call reached " + delivery.platform().displayName() + ", so posting it again is safe."));
        }
        if (looked.published()) {
            return new Settlement(DeliveryStatus.PUBLISHED, looked.providerPostId(), looked.url(), null);
        }
        if (looked.isLater() || looked.mayHavePublished() || looksAfterReconnection(looked.error())) {
            return new Settlement(
                    DeliveryStatus.UNCERTAIN,
                    null,
                    null,
                    timeout(
                            delivery,
                            "Herald is asking " + delivery.platform().displayName()
                                    + " whether an interrupted call published it."));
        }
        if (TargetError.PUBLICATION_UNCONFIRMED.equals(looked.error().code())) {
            return failed(looked.error());
        }
        return failed(timeout(
                delivery,
                delivery.platform().displayName() + " shows no publication of it, so posting it again is safe."));
    }

    private static boolean looksAfterReconnection(TargetError error) {
        return error != null && TargetError.ACCOUNT_REAUTH_REQUIRED.equals(error.code());
    }

    private static Settlement failed(TargetError error) {
        return new Settlement(DeliveryStatus.FAILED, null, null, error);
    }

    /** {@code delivery_timeout}: category platform, action retry_later (the code's defaults). */
    static TargetError timeout(LeasedDelivery delivery, String finding) {
        return new TargetError(
                TargetError.DELIVERY_TIMEOUT,
                "Herald could not deliver the post in time (it fell due at " + delivery.dueAt() + "); " + finding,
                true,
                Map.of("platform", delivery.platform().wireName()));
    }
}
