package dev.herald.webhooks.delivery;

import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.model.AttemptOutcome;
import dev.herald.webhooks.model.ClaimedDelivery;
import dev.herald.webhooks.service.ReceiverAddresses;
import dev.herald.webhooks.service.RetrySchedule;
import dev.herald.webhooks.service.SigningSecrets;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLException;
import org.jboss.logging.Logger;

/**
 * One attempt at a claimed delivery, for {@link WebhookSender}: the receiver's address checked again (SSRF guard), the
 * stored body signed with every secret that still signs and POSTed, and the answer classified into the outcome the
 * sender writes under its lease. A pull endpoint's delivery (no URL) succeeds at once: its event is in the endpoint's
 * feed.
 */
@ApplicationScoped
public class WebhookAttempt {
    private static final Logger LOG = Logger.getLogger(WebhookAttempt.class);

    private final ReceiverAddresses addresses;
    private final ReceiverClient client;
    private final SigningSecrets secrets;
    private final RetrySchedule schedule;
    private final WebhooksConfig config;
    private final Clock clock;

    public WebhookAttempt(
            ReceiverAddresses addresses,
            ReceiverClient client,
            SigningSecrets secrets,
            RetrySchedule schedule,
            WebhooksConfig config,
            Clock clock) {
        this.addresses = addresses;
        this.client = client;
        this.secrets = secrets;
        this.schedule = schedule;
        this.config = config;
        this.clock = clock;
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
        if (delivery.url() == null) {
            // A pull endpoint's delivery is in its feed (GET /webhooks/{id}/events) once it exists: nothing to send.
            return Uni.createFrom()
                    .item(new AttemptOutcome(
                            delivery,
                            WebhookDelivery.SUCCEEDED,
                            null,
                            null,
                            null,
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

    AttemptOutcome retryOrFail(
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
