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
 * The claim loop: every {@code herald.delivery.poll-interval} (200 ms) it claims due deliveries (retries whose
 * time came, leases that lapsed because their worker died) and attempts them; overdue ones (a step late by more than
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
        if (room == 0 || !polling.compareAndSet(false, true)) {
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
                        },
                        failure -> {
                            polling.set(false);
                            LOG.warnf(
                                    "claiming due deliveries failed: %s (next look in %s)",
                                    failure.toString(), config.pollInterval());
                        });
    }
}
