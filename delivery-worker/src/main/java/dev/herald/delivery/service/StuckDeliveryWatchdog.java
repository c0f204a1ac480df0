package dev.herald.delivery.service;

import dev.herald.common.outbox.OutboxRelayJob;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.messaging.TargetCompletedOutbox;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.repository.DeliveryStatements;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Nothing stays stuck in delivery: every {@code herald.delivery.watchdog.interval} (30 s) it claims the deliveries
 * {@link StuckDeliveryRule} calls overdue (pending more than {@code due-grace} past their time, or publishing more
 * than {@code lease-grace} past a lease no worker took over) and settles them instead of attempting them late; the
 * intake hands it a {@code post.accepted} that came more than {@code due-grace} after its post fell due. A delivery
 * that ever called its platform is first looked up there, as the {@link UncertainReconciler} does (never publishing):
 * found, it is published; otherwise it fails {@code delivery_timeout} (retryable), or stays {@code uncertain} for the
 * reconciler when the platform cannot say now. Each settlement goes through the ordinary final write with its
 * {@code target.completed}, so posts-service finalizes the post and usage-service releases (or consumes) the
 * reservation as for any other outcome.
 *
 * <p>It lives here, not in posts-service, because only the worker can fence a delivery: the claim gives the row a new
 * lease token, so a worker that still held the old lease (frozen, partitioned) can neither count another attempt nor
 * write its outcome; and only the worker can ask the platform. posts-service's {@code HandoverWatchdog} covers what the
 * worker cannot see (a handover that never arrived) by handing the post over again, which lands here. Safe with several
 * replicas: claims skip rows another replica holds.
 */
@ApplicationScoped
public class StuckDeliveryWatchdog {
    private static final Logger LOG = Logger.getLogger(StuckDeliveryWatchdog.class);

    private final DeliveryStatements deliveries;
    private final UncertainReconciler reconciler;
    private final OutboxRelayJob relay;
    private final DeliveryConfig config;
    private final StuckDeliveryRule rule;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final RepeatingTask task;
    // A failed write ends the look: the rest keep their lease, marked overdue, and wait for the next look.
    private final DueWork<LeasedDelivery> settlements = DueWork.endingAtFailure(this::settle);

    public StuckDeliveryWatchdog(
            DeliveryStatements deliveries,
            UncertainReconciler reconciler,
            OutboxRelayJob relay,
            DeliveryConfig config,
            Clock clock,
            MeterRegistry metrics,
            Vertx vertx) {
        this.deliveries = deliveries;
        this.reconciler = reconciler;
        this.relay = relay;
        this.config = config;
        this.rule = StuckDeliveryRule.of(config.watchdog());
        this.clock = clock;
        this.metrics = metrics;
        this.task = new RepeatingTask(
                vertx, "stuck delivery watchdog", config.watchdog().interval(), this::lookOnce);
    }

    void start(@Observes StartupEvent started) {
        if (config.watchdog().enabled()) {
            task.start();
        }
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** The rule the claim loop and the intake share with this watchdog. */
    public StuckDeliveryRule rule() {
        return rule;
    }

    /** One look: claims a batch of overdue deliveries and settles them; the number settled. */
    public Uni<Integer> lookOnce() {
        Instant now = Timestamps.now(clock);
        return settlements
                .round(deliveries.claim(
                        rule.overdue(now),
                        now,
                        leaseUntil(now),
                        config.watchdog().batchSize()))
                .map(DueWork.Round::handled);
    }

    /**
     * The lease of a look's claims: long enough for the whole batch, one platform look (the publish timeout) after the
     * other, so another replica does not take them back meanwhile. Claimed rows are marked overdue: if this worker dies,
     * they wait for the watchdog again, never for the claim loop.
     */
    private Instant leaseUntil(Instant now) {
        return now.plus(config.lease())
                .plus(config.publishTimeout().multipliedBy(config.watchdog().batchSize()));
    }

    /** Settles deliveries this worker holds the lease of, one at a time; the number settled. */
    public Uni<Integer> settleAll(List<LeasedDelivery> overdue) {
        return settlements.handleAll(overdue).map(DueWork.Round::handled);
    }

    private Uni<Boolean> settle(LeasedDelivery delivery) {
        return look(delivery).flatMap(looked -> write(delivery, StuckDeliveryRule.settle(delivery, looked)));
    }

    /** What the platform shows of the delivery's calls, as the reconciler asks; null when none was made. */
    private Uni<PublishOutcome> look(LeasedDelivery delivery) {
        if (!StuckDeliveryRule.asksPlatform(delivery)) {
            return Uni.createFrom().nullItem();
        }
        return reconciler.lookUp(delivery);
    }

    private Uni<Boolean> write(LeasedDelivery delivery, StuckDeliveryRule.Settlement settlement) {
        Instant now = Timestamps.now(clock);
        Instant reconcileAt = DeliveryStatus.UNCERTAIN.equals(settlement.status())
                ? now.plus(config.reconcile().firstLook())
                : null;
        return deliveries
                .complete(new DeliveryStatements.Completion(
                        delivery,
                        settlement.status(),
                        settlement.providerPostId(),
                        settlement.url(),
                        settlement.error(),
                        now,
                        reconcileAt,
                        TargetCompletedOutbox.finalEntry(
                                delivery,
                                settlement.status(),
                                settlement.providerPostId(),
                                settlement.url(),
                                settlement.error(),
                                now)))
                .invoke(held -> {
                    if (!held) {
                        LOG.infof(
                                "overdue post %s to account %s: another worker holds it now; this settlement is dropped",
                                delivery.postId(), delivery.accountId());
                        return;
                    }
                    relay.nudge();
                    metrics.counter(
                                    "herald.deliveries.overdue",
                                    "platform",
                                    delivery.platform().wireName(),
                                    "outcome",
                                    settlement.status())
                            .increment();
                    LOG.warnf(
                            "post %s to account %s (%s), due at %s: overdue, settled %s%s",
                            delivery.postId(),
                            delivery.accountId(),
                            delivery.platform().wireName(),
                            delivery.dueAt(),
                            settlement.status(),
                            settlement.error() == null
                                    ? ""
                                    : " (" + settlement.error().code() + ")");
                });
    }
}
