package dev.herald.webhooks.delivery;

import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.model.ClaimedDelivery;
import dev.herald.webhooks.repository.DeliveryAttemptStatements;
import dev.herald.webhooks.service.RetrySchedule;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Sends webhook deliveries. A loop (every {@code poll-interval}, and at once when {@link #nudge()}d after new
 * deliveries commit) claims due deliveries with {@code FOR UPDATE SKIP LOCKED} and a lease, then starts each
 * attempt on its own without waiting for the others: a slow receiver holds only its own attempts (at most
 * {@code max-in-flight-per-endpoint} of them), never the loop or other endpoints. Every attempt ({@link WebhookAttempt}) re-checks the
 * receiver's address (SSRF guard), signs the stored body with every secret that still signs, POSTs it, and its
 * outcome is written under its lease: 2xx succeeded; 410 Gone failed, and the endpoint disabled; anything else
 * (timeout, connection error, 3xx, 4xx, 5xx) pending again after the {@link RetrySchedule}'s wait, or failed when
 * none is left. Deliveries live in PostgreSQL, so a restart loses nothing: an attempt cut off by a crash is
 * claimed again when its lease lapses.
 */
@ApplicationScoped
public class WebhookSender {
    private static final Logger LOG = Logger.getLogger(WebhookSender.class);

    private final DeliveryAttemptStatements deliveries;
    private final OutcomeWriter outcomes;
    private final WebhookAttempt attempts;
    private final WebhooksConfig config;
    private final Vertx vertx;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final Tracer tracer;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean backlog = new AtomicBoolean();
    private volatile RepeatingTask loop;

    public WebhookSender(
            DeliveryAttemptStatements deliveries,
            OutcomeWriter outcomes,
            WebhookAttempt attempts,
            WebhooksConfig config,
            Vertx vertx,
            Clock clock,
            MeterRegistry metrics,
            Tracer tracer) {
        if (config.lease().compareTo(config.requestTimeout().plusSeconds(1)) < 0) {
            // Otherwise a slow receiver's attempt would lose its lease and be sent again while it runs.
            throw new IllegalStateException("herald.webhooks.lease (" + config.lease()
                    + ") must be at least a second longer than herald.webhooks.request-timeout ("
                    + config.requestTimeout() + ")");
        }
        this.deliveries = deliveries;
        this.outcomes = outcomes;
        this.attempts = attempts;
        this.config = config;
        this.vertx = vertx;
        this.clock = clock;
        this.metrics = metrics;
        this.tracer = tracer;
    }

    void start(@Observes StartupEvent event) {
        loop = new RepeatingTask(vertx, "webhook sender", config.pollInterval(), this::claimAndSend);
        loop.start();
        loop.nudge();
    }

    void stop(@Observes ShutdownEvent event) {
        if (loop != null) {
            loop.stop();
        }
    }

    /** Looks for due deliveries now (new ones were just committed). */
    public void nudge() {
        RepeatingTask current = loop;
        if (current != null) {
            current.nudge();
        }
    }

    /**
     * Takes up to {@code wanted} attempt slots for deliveries an intake is about to lease to this sender directly;
     * answers how many it got. The intake leases at most that many, then hands them to {@link #sendLeased}.
     */
    public int takeSlots(int wanted) {
        while (true) {
            int current = inFlight.get();
            int granted = Math.max(0, Math.min(wanted, config.maxInFlight() - current));
            if (granted == 0 || inFlight.compareAndSet(current, current + granted)) {
                return granted;
            }
        }
    }

    /** Gives back slots {@link #takeSlots taken} for an intake that leased nothing (its transaction failed). */
    public void returnSlots(int slots) {
        inFlight.addAndGet(-slots);
    }

    /**
     * Starts the attempts of deliveries an intake leased to this sender, once its transaction has committed (an
     * outcome written before would find no lease), on the {@code slotsTaken} taken for them.
     */
    public void sendLeased(List<ClaimedDelivery> leased, int slotsTaken) {
        returnSlots(slotsTaken);
        leased.forEach(this::start);
    }

    /** Attempts this sender is running now. */
    public int inFlight() {
        return inFlight.get();
    }

    private Uni<?> claimAndSend() {
        int room = Math.min(config.claimBatchSize(), config.maxInFlight() - inFlight.get());
        if (room <= 0) {
            backlog.set(true);
            return Uni.createFrom().voidItem();
        }
        Instant now = Timestamps.now(clock);
        return deliveries
                .claimDue(now, now.plus(config.lease()), room, config.maxInFlightPerEndpoint())
                .invoke(claimed -> {
                    // While attempts are in flight, look again as soon as one's outcome is written: the batch may
                    // have been cut short by the per-endpoint limit (endpoints at it are left out, so a batch is
                    // rarely full), and each written outcome frees a slot. Waiting for the next poll instead held
                    // every endpoint to max-in-flight-per-endpoint attempts per poll interval (16 per 200 ms).
                    backlog.set(!claimed.isEmpty() || inFlight.get() > 0);
                    for (ClaimedDelivery delivery : claimed) {
                        start(delivery);
                    }
                });
    }

    private void start(ClaimedDelivery delivery) {
        inFlight.incrementAndGet();
        Timer.Sample attemptTime = Timer.start(metrics);
        // A span of the trace the event came with (the customer's request, through delivery and finalization).
        Span span = tracer.spanBuilder("webhook attempt")
                .setParent(TraceParents.asParent(delivery.traceParent()))
                .setAttribute("herald.delivery_id", delivery.id())
                .setAttribute("herald.event_id", delivery.eventId())
                .startSpan();
        try (Scope ignored = span.makeCurrent()) {
            send(delivery, attemptTime, span);
        }
    }

    private void send(ClaimedDelivery delivery, Timer.Sample attemptTime, Span span) {
        Uni.createFrom()
                .deferred(() -> attempts.attempt(delivery))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.errorf(failure, "webhook delivery %s: the attempt broke off", delivery.id());
                    return attempts.retryOrFail(
                            delivery, null, "The attempt could not be made (internal error).", Optional.empty());
                })
                .invoke(outcome -> {
                    String result = metricOutcome(outcome);
                    metrics.counter("herald.webhook.attempts", "outcome", result)
                            .increment();
                    attemptTime.stop(metrics.timer("herald.webhook.attempt.duration", "outcome", result));
                })
                .flatMap(outcomes::write)
                .onTermination()
                .invoke(() -> {
                    span.end();
                    inFlight.decrementAndGet();
                    if (backlog.getAndSet(false)) {
                        nudge();
                    }
                })
                .subscribe()
                .with(
                        written -> {
                            if (!written) {
                                LOG.infof(
                                        "webhook delivery %s: lease lost to another sender; this attempt's outcome is dropped",
                                        delivery.id());
                            }
                        },
                        failure -> LOG.debugf(
                                "webhook delivery %s: outcome not written (%s); retried when its lease lapses",
                                delivery.id(), failure.toString()));
    }

    /**
     * The {@code outcome} label of {@code herald_webhook_attempts_total}: {@code succeeded}, {@code retrying} (failed,
     * another attempt is scheduled), {@code failed} (failed for good) or {@code not_sent} (the endpoint was disabled).
     */
    static String metricOutcome(AttemptOutcome outcome) {
        if (!outcome.attempted()) {
            return "not_sent";
        }
        return WebhookDelivery.PENDING.equals(outcome.status()) ? "retrying" : outcome.status();
    }
}
