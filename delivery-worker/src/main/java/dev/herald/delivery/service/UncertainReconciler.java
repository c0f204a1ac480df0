package dev.herald.delivery.service;

import dev.herald.common.outbox.OutboxRelayJob;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.messaging.TargetCompletedOutbox;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publishers;
import dev.herald.delivery.repository.DeliveryStatements;
import dev.herald.delivery.repository.DeliveryStatements.UncertainDelivery;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Settles uncertain deliveries: those whose last call's outcome is unknown (a timeout, a 5xx, a worker that died
 * mid-call) with no attempt left. Every {@code herald.delivery.reconcile.interval} it claims the ones due a look and
 * asks their publisher ({@link dev.herald.delivery.provider.Publisher#reconcile}, which never publishes) what the
 * platform did: published settles the target published (its reservation is consumed), nothing published settles it
 * failed (released), "cannot say now" looks again later, the waits doubling from {@code first-look} up to
 * {@code max-wait}. A target uncertain for longer than {@code give-up-after} is settled failed
 * {@code publication_unconfirmed}. Meanwhile the target keeps its reservation (spec section 3). Each settlement and its
 * {@code target.completed} commit together; claims skip rows another replica holds, so replicas share the work.
 */
@ApplicationScoped
public class UncertainReconciler {
    private static final Logger LOG = Logger.getLogger(UncertainReconciler.class);

    private final DeliveryStatements deliveries;
    private final Publishers publishers;
    private final OutboxRelayJob relay;
    private final DeliveryConfig config;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final RepeatingTask task;
    // One at a time: uncertain deliveries are rare, and a platform that just failed deserves no burst. A failed write
    // ends the round; the rest keep their lease and are claimed again once it lapses.
    private final DueWork<UncertainDelivery> looks =
            DueWork.endingAtFailure(uncertain -> reconcile(uncertain).replaceWith(true));

    public UncertainReconciler(
            DeliveryStatements deliveries,
            Publishers publishers,
            OutboxRelayJob relay,
            DeliveryConfig config,
            Vertx vertx,
            Clock clock,
            MeterRegistry metrics) {
        this.deliveries = deliveries;
        this.publishers = publishers;
        this.relay = relay;
        this.config = config;
        this.clock = clock;
        this.metrics = metrics;
        this.task = new RepeatingTask(
                vertx, "uncertain reconciler", config.reconcile().interval(), this::lookOnce);
    }

    void start(@Observes StartupEvent event) {
        task.start();
    }

    void stop(@Observes ShutdownEvent event) {
        task.stop();
    }

    /** One round (the task never overlaps rounds); a failed one is logged here and the next tick tries again. */
    Uni<Void> lookOnce() {
        Instant now = Timestamps.now(clock);
        return looks.round(deliveries.claimUncertain(
                        now, now.plus(config.lease()), config.reconcile().batchSize()))
                .onFailure()
                .invoke(failure -> LOG.warnf(
                        "reconciling uncertain deliveries failed: %s (next round in %s)",
                        failure.toString(), config.reconcile().interval()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    Uni<Void> reconcile(UncertainDelivery uncertain) {
        LeasedDelivery delivery = uncertain.delivery();
        Instant now = Timestamps.now(clock);
        if (uncertain.uncertainSince().plus(config.reconcile().giveUpAfter()).isBefore(now)) {
            return settle(
                    delivery,
                    PublishOutcome.failed(new TargetError(
                            TargetError.PUBLICATION_UNCONFIRMED,
                            "Herald could not learn from " + delivery.platform().displayName() + " within "
                                    + config.reconcile().giveUpAfter().toHours()
                                    + " hours whether the interrupted delivery"
                                    + " published the post; check the account before posting it again.",
                            false,
                            Map.of("platform", delivery.platform().wireName()))));
        }
        return lookUp(delivery)
                // An account awaiting re-authorization cannot be looked at, which says nothing about the publication.
                .flatMap(outcome -> outcome.isLater() || outcome.mayHavePublished() || awaitsReconnection(outcome)
                        ? lookLater(uncertain, outcome.isLater() ? outcome.checkAgainIn() : Duration.ZERO)
                        : settle(delivery, outcome));
    }

    /**
     * What the platform shows of the delivery's calls ({@link dev.herald.delivery.provider.Publisher#reconcile}, which
     * never publishes), bounded by the publish timeout; {@link PublishOutcome#later} when it could not be asked. The
     * {@link StuckDeliveryWatchdog} looks the same way.
     */
    Uni<PublishOutcome> lookUp(LeasedDelivery delivery) {
        return Uni.createFrom()
                .deferred(() -> publishers
                        .of(delivery.mode(), delivery.platform())
                        .reconcile(PublishRequest.reconciling(delivery)))
                .ifNoItem()
                .after(config.publishTimeout())
                .fail()
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf(
                            "looking up post %s to account %s: the platform could not be asked (%s)",
                            delivery.postId(), delivery.accountId(), failure.toString());
                    return PublishOutcome.later(Duration.ZERO);
                });
    }

    private static boolean awaitsReconnection(PublishOutcome outcome) {
        return outcome.error() != null
                && TargetError.ACCOUNT_REAUTH_REQUIRED.equals(outcome.error().code());
    }

    private Uni<Void> lookLater(UncertainDelivery uncertain, Duration asked) {
        LeasedDelivery delivery = uncertain.delivery();
        Instant now = Timestamps.now(clock);
        Duration wait = waitAfter(uncertain.checks());
        if (asked.compareTo(wait) > 0) {
            wait = asked;
        }
        Instant next = now.plus(wait);
        return deliveries
                .reconcileLater(delivery, next, now)
                .invoke(held -> LOG.infof(
                        "post %s to account %s is still uncertain after %d look(s); next look at %s",
                        delivery.postId(), delivery.accountId(), uncertain.checks(), next))
                .replaceWithVoid();
    }

    /** The wait after the n-th look: first-look doubled n - 1 times, at most max-wait. */
    Duration waitAfter(int checks) {
        Duration first = config.reconcile().firstLook();
        Duration max = config.reconcile().maxWait();
        int doublings = Math.min(Math.max(checks - 1, 0), 30);
        Duration wait = first.multipliedBy(1L << doublings);
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /** The settlement and its target.completed, in one statement. */
    private Uni<Void> settle(LeasedDelivery delivery, PublishOutcome outcome) {
        Instant now = Timestamps.now(clock);
        String status = outcome.published() ? DeliveryStatus.PUBLISHED : DeliveryStatus.FAILED;
        return deliveries
                .settle(
                        delivery,
                        status,
                        outcome.providerPostId(),
                        outcome.url(),
                        outcome.error(),
                        now,
                        TargetCompletedOutbox.finalEntry(
                                delivery, status, outcome.providerPostId(), outcome.url(), outcome.error(), now))
                .invoke(held -> {
                    if (!held) {
                        LOG.infof(
                                "post %s to account %s: another reconciler holds it now; this look is dropped",
                                delivery.postId(), delivery.accountId());
                        return;
                    }
                    relay.nudge();
                    metrics.counter(
                                    "herald.deliveries.reconciled",
                                    "platform",
                                    delivery.platform().wireName(),
                                    "outcome",
                                    status)
                            .increment();
                    LOG.infof(
                            "post %s to account %s (%s): uncertain, reconciled as %s%s",
                            delivery.postId(),
                            delivery.accountId(),
                            delivery.platform().wireName(),
                            status,
                            outcome.error() == null
                                    ? ""
                                    : " (" + outcome.error().code() + ")");
                })
                .replaceWithVoid();
    }
}
