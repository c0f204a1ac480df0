package dev.herald.delivery.service;

import dev.herald.common.time.Timestamps;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.repository.DeliveryStatements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The claim loop: every {@code herald.delivery.poll-interval} (200 ms), and sooner while a backlog lasts, it claims due
 * deliveries (retries whose time came, leases that lapsed because their worker died, deliveries the intake left
 * pending for want of free places) and attempts them; overdue ones (a step late by more than
 * the watchdog's graces: no worker ran) are left to the {@link StuckDeliveryWatchdog}. Safe with any number of replicas:
 * claims skip rows another worker is claiming, and each claim gives the row a new lease token. A Vert.x timer,
 * because Quarkus's simple scheduler runs an {@code every} below one second only once a second.
 */
@ApplicationScoped
public class DueDeliveryPoller {
    private static final Logger LOG = Logger.getLogger(DueDeliveryPoller.class);

    private final DeliveryStatements deliveries;
    private final DeliveryAttempts attempts;
    private final StuckDeliveryRule rule;
    private final DeliveryConfig config;
    private final Vertx vertx;
    private final Clock clock;
    private final AtomicBoolean polling = new AtomicBoolean();
    /** The last claim took all it asked for: more may be due. */
    private volatile boolean backlogged;
    /** A look after {@code backlog-poll-interval} is scheduled. */
    private final AtomicBoolean lookPending = new AtomicBoolean();

    private volatile long timerId = -1;

    public DueDeliveryPoller(
            DeliveryStatements deliveries,
            DeliveryAttempts attempts,
            StuckDeliveryWatchdog watchdog,
            DeliveryConfig config,
            Vertx vertx,
            Clock clock) {
        this.deliveries = deliveries;
        this.attempts = attempts;
        this.rule = watchdog.rule();
        this.config = config;
        this.vertx = vertx;
        this.clock = clock;
    }

    void start(@Observes StartupEvent event) {
        timerId = vertx.setPeriodic(config.pollInterval().toMillis(), id -> poll());
    }

    void stop(@Observes ShutdownEvent event) {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
    }

    /** One look: claims no more than this worker has room for, and never overlaps the previous look. */
    void poll() {
        int room = Math.min(attempts.freePlaces(), config.claimBatchSize());
        if (room == 0) {
            lookAgainSoonWhileBacklogged();
            return;
        }
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        Instant now = Timestamps.now(clock);
        deliveries
                .claim(rule.onTime(now), now, now.plus(config.lease()), room)
                .subscribe()
                .with(
                        claimed -> {
                            polling.set(false);
                            attempts.startAll(claimed);
                            backlogged = claimed.size() == room;
                            lookAgainSoonWhileBacklogged();
                        },
                        failure -> {
                            polling.set(false);
                            backlogged = false;
                            LOG.warnf(
                                    "claiming due deliveries failed: %s (next look in %s)",
                                    failure.toString(), config.pollInterval());
                        });
    }

    /**
     * After a full claim more may be due: the next look comes after {@code herald.delivery.backlog-poll-interval}
     * (and again while the worker has no free place), not at the next tick. At one look a tick the loop could start
     * no more than a claim batch per {@code poll-interval} (50 per 200 ms: 250 a second, however fast attempts end,
     * which capped a burst of scheduled posts). One such look is pending at a time.
     */
    private void lookAgainSoonWhileBacklogged() {
        if (backlogged && lookPending.compareAndSet(false, true)) {
            vertx.setTimer(config.backlogPollInterval().toMillis(), id -> {
                lookPending.set(false);
                poll();
            });
        }
    }
}
