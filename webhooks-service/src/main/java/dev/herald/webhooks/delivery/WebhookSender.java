package dev.herald.webhooks.delivery;

import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.model.ClaimedDelivery;
import dev.herald.webhooks.model.WebhookDelivery;
import dev.herald.webhooks.model.WebhookEndpoint;
import dev.herald.webhooks.repository.DeliveryAttemptStatements;
import dev.herald.webhooks.service.ReceiverAddresses;
import dev.herald.webhooks.service.RetrySchedule;
import dev.herald.webhooks.service.SigningSecrets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.jboss.logging.Logger;

/**
 * Sends webhook deliveries. A loop (every {@code poll-interval}, and at once when {@link #nudge()}d after new
 * deliveries commit) claims due deliveries with {@code FOR UPDATE SKIP LOCKED} and a lease, then starts each
 * attempt on its own without waiting for the others: a slow receiver holds only its own attempts (at most
 * {@code max-in-flight-per-endpoint} of them), never the loop or other endpoints. Every attempt re-checks the
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
    private final ReceiverAddresses addresses;
    private final ReceiverClient client;
    private final SigningSecrets secrets;
    private final RetrySchedule schedule;
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
            ReceiverAddresses addresses,
            ReceiverClient client,
            SigningSecrets secrets,
            RetrySchedule schedule,
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
        this.addresses = addresses;
        this.client = client;
        this.secrets = secrets;
        this.schedule = schedule;
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
                .deferred(() -> attempt(delivery))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.errorf(failure, "webhook delivery %s: the attempt broke off", delivery.id());
                    return retryOrFail(
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

    Uni<AttemptOutcome> attempt(ClaimedDelivery delivery) {
        if (!WebhookEndpoint.ENABLED.equals(delivery.endpointStatus())) {
            return Uni.createFrom()
                    .item(new AttemptOutcome(
                            delivery,
                            WebhookDelivery.FAILED,
                            null,
                            null,
                            "The endpoint is disabled.",
                            null,
                            Timestamps.now(clock),
                            false,
                            false));
        }
        List<String> signing = new ArrayList<>();
        for (String sealed : delivery.sealedSecrets()) {
            try {
                signing.add(secrets.open(sealed, delivery.endpointId()));
            } catch (RuntimeException e) {
                LOG.errorf(
                        "webhook endpoint %s: a signing secret could not be opened (%s)",
                        delivery.endpointId(), e.getMessage());
            }
        }
        if (signing.isEmpty()) {
            return Uni.createFrom()
                    .item(retryOrFail(
                            delivery, null, "The delivery could not be signed (internal error).", Optional.empty()));
        }
        return addresses
                .vet(delivery.url())
                .flatMap(receiver -> {
                    byte[] body = delivery.payload().getBytes(StandardCharsets.UTF_8);
                    long timestamp = clock.instant().getEpochSecond();
                    Map<String, String> headers = Map.of(
                            "webhook-id", delivery.eventId(),
                            "webhook-timestamp", Long.toString(timestamp),
                            "webhook-signature", Signatures.header(signing, delivery.eventId(), timestamp, body),
                            "content-type", "application/json");
                    return client.post(receiver, body, headers);
                })
                .map(answer -> classify(delivery, answer))
                .onFailure()
                .recoverWithItem(failure -> retryOrFail(delivery, null, describe(failure), Optional.empty()));
    }

    private AttemptOutcome classify(ClaimedDelivery delivery, ReceiverClient.Answer answer) {
        Instant now = Timestamps.now(clock);
        int status = answer.status();
        if (status >= 200 && status < 300) {
            LOG.debugf("webhook delivery %s: %d on attempt %d", delivery.id(), status, delivery.attempts());
            return new AttemptOutcome(
                    delivery, WebhookDelivery.SUCCEEDED, null, status, null, answer.body(), now, false, true);
        }
        if (status == 410) {
            LOG.infof("webhook endpoint %s answered 410 Gone: disabled", delivery.endpointId());
            return new AttemptOutcome(
                    delivery,
                    WebhookDelivery.FAILED,
                    null,
                    status,
                    "The endpoint answered 410 Gone and was disabled.",
                    answer.body(),
                    now,
                    true,
                    true);
        }
        String error = status >= 300 && status < 400
                ? "The endpoint answered " + status + " (redirects are not followed)."
                : "The endpoint answered " + status + ".";
        return retryOrFail(delivery, answer, error, RetrySchedule.parseRetryAfter(answer.retryAfter(), now));
    }

    private AttemptOutcome retryOrFail(
            ClaimedDelivery delivery, ReceiverClient.Answer answer, String error, Optional<Duration> retryAfter) {
        Instant now = Timestamps.now(clock);
        Integer status = answer == null ? null : answer.status();
        String body = answer == null ? null : answer.body();
        Optional<Duration> wait =
                delivery.finalAttempt() ? Optional.empty() : schedule.after(delivery.attempts(), retryAfter);
        if (wait.isEmpty()) {
            LOG.infof(
                    "webhook delivery %s to endpoint %s failed after %d attempt(s): %s (trace %s)",
                    delivery.id(),
                    delivery.endpointId(),
                    delivery.attempts(),
                    error,
                    TraceParents.traceId(delivery.traceParent()));
            return new AttemptOutcome(delivery, WebhookDelivery.FAILED, null, status, error, body, now, false, true);
        }
        LOG.debugf(
                "webhook delivery %s: attempt %d failed (%s); next in %d ms",
                delivery.id(), delivery.attempts(), error, wait.get().toMillis());
        return new AttemptOutcome(
                delivery, WebhookDelivery.PENDING, now.plus(wait.get()), status, error, body, now, false, true);
    }

    private String describe(Throwable failure) {
        if (failure instanceof ReceiverAddresses.RefusedUrl refused) {
            return "The endpoint's URL " + refused.getMessage() + ".";
        }
        if (failure instanceof TimeoutException
                || failure instanceof java.util.concurrent.TimeoutException
                || failure instanceof io.netty.handler.timeout.TimeoutException) {
            return "The endpoint did not answer within "
                    + config.requestTimeout().toMillis() / 1000.0 + " s.";
        }
        if (failure instanceof ConnectException || failure.getClass().getName().contains("ConnectTimeoutException")) {
            return "Could not connect to the endpoint.";
        }
        if (failure instanceof SSLException) {
            return "The TLS handshake with the endpoint failed.";
        }
        if (failure.getMessage() != null && failure.getMessage().toLowerCase().contains("closed")) {
            return "The endpoint closed the connection without an answer.";
        }
        return "The request to the endpoint failed.";
    }
}
