package dev.herald.delivery.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.client.UsageClient;
import dev.herald.common.client.UsageVerdict;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.net.PlatformAnswerUnreadable;
import dev.herald.common.outbox.OutboxRelayJob;
import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.messaging.TargetCompletedOutbox;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.AccessUnavailable;
import dev.herald.delivery.provider.ErrorTable;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.Publishers;
import dev.herald.delivery.provider.UntrustedAnswers;
import dev.herald.delivery.repository.DeliveryStatements;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * One attempt at a leased delivery: ask usage-service whether the reservation may be consumed, call the
 * platform's publisher, record the outcome. Every write presents the lease token, so a worker that lost its
 * lease (it was too slow, another worker claimed the row) drops its outcome instead of writing a second one;
 * the publisher's idempotency token makes the other worker's repeated call harmless at the provider.
 * <ul>
 *   <li>usage-service refuses ({@code usage_limit_exceeded}, {@code account_capacity_exceeded}): failed, not
 *       retryable, and not an attempt (the provider was never called);</li>
 *   <li>usage-service cannot answer, or accounts-service cannot give the account's access before the platform is
 *       called: postponed with backoff, not an attempt, never a failure;</li>
 *   <li>published: final; failed and not retryable, or out of attempts: final with the error, as {@code uncertain}
 *       when the last call's outcome is unknown (the {@link UncertainReconciler} settles it later);</li>
 *   <li>failed and retryable: pending again after {@link RetryBackoff};</li>
 *   <li>not final yet ({@link PublishOutcome#later}: the platform is processing, or an ingest slot is busy):
 *       pending again after the publisher's delay, and the call is not counted as an attempt;</li>
 *   <li>its account needs re-authorization (the claim found it in {@code held_accounts}, or accounts-service refused
 *       a live account's access with {@code account_reauth_required}): held, pending without an attempt until the
 *       account is reconnected, failed with {@code account_reauth_required} at the hold deadline ({@link ReauthHold}).
 *       The held check runs before the usage check, so a held target costs neither usage-service nor a platform.</li>
 * </ul>
 * A final outcome and its {@code target.completed} commit together; the outbox relay is then woken at once.
 * <p>
 * Each attempt is a span of the trace the post was accepted in (the delivery's stored traceparent), so the usage
 * check, the outcome's log line and {@code target.completed} belong to the customer's request. Metrics:
 * {@code herald_deliveries_total{platform,mode,outcome}} counts final outcomes and
 * {@code herald_delivery_attempts_seconds{platform,mode,outcome}} times the provider calls.
 * <p>
 * Longer than 300 lines: it is one state machine, whose transitions (check, publish, record, retry, defer, finish) all
 * present the same lease and read best together; {@link RetryBackoff} is its one separable decision.
 */
@ApplicationScoped
public class DeliveryAttempts {
    private static final Logger LOG = Logger.getLogger(DeliveryAttempts.class);

    private final DeliveryStatements deliveries;
    private final UsageClient usage;
    private final Publishers publishers;
    private final OutboxRelayJob relay;
    private final RetryBackoff backoff;
    private final ReauthHold reauthHold;
    private final DeliveryConfig config;
    private final Clock clock;
    private final Tracer tracer;
    private final MeterRegistry metrics;
    private final AtomicInteger inFlight = new AtomicInteger();

    public DeliveryAttempts(
            DeliveryStatements deliveries,
            UsageClient usage,
            Publishers publishers,
            OutboxRelayJob relay,
            RetryBackoff backoff,
            DeliveryConfig config,
            Clock clock,
            Tracer tracer,
            MeterRegistry metrics) {
        if (config.lease().compareTo(config.publishTimeout()) <= 0) {
            // Otherwise every slow publication would lose its lease and be published (idempotently) again.
            throw new IllegalStateException("herald.delivery.lease (" + config.lease()
                    + ") must be longer than herald.delivery.publish-timeout (" + config.publishTimeout() + ")");
        }
        this.deliveries = deliveries;
        this.usage = usage;
        this.publishers = publishers;
        this.relay = relay;
        this.backoff = backoff;
        this.reauthHold = new ReauthHold(config.reauthHold(), config.reauthRecheck());
        this.config = config;
        this.clock = clock;
        this.tracer = tracer;
        this.metrics = metrics;
    }

    /** How many more deliveries this worker may take on now. */
    public int freePlaces() {
        return Math.max(0, config.maxConcurrentAttempts() - inFlight.get());
    }

    /**
     * Starts an attempt at each delivery without waiting for them. An attempt that breaks off (the database went
     * away) is only logged: its lease lapses and the claim loop tries again.
     */
    public void startAll(List<LeasedDelivery> leased) {
        for (LeasedDelivery delivery : leased) {
            inFlight.incrementAndGet();
            Span span = tracer.spanBuilder("deliver " + delivery.platform().wireName())
                    .setParent(TraceParents.asParent(delivery.traceParent()))
                    .setAttribute("herald.post_id", delivery.postId())
                    .setAttribute("herald.account_id", delivery.accountId())
                    .startSpan();
            // Current while the attempt is subscribed, so the usage check's HTTP call carries the trace too.
            try (Scope ignored = span.makeCurrent()) {
                attempt(delivery.inTrace(TraceParents.of(span.getSpanContext())))
                        .onTermination()
                        .invoke(() -> {
                            inFlight.decrementAndGet();
                            span.end();
                        })
                        .subscribe()
                        .with(
                                done -> {},
                                failure -> LOG.errorf(
                                        failure,
                                        "delivery of post %s to account %s broke off; it is claimed again when its lease lapses",
                                        delivery.postId(),
                                        delivery.accountId()));
            }
        }
    }

    Uni<Void> attempt(LeasedDelivery delivery) {
        if (delivery.attempts() > config.maxAttempts()) {
            // Only a worker that died during the one call allowed beyond the last attempt (see publish) leaves this.
            return finish(
                    delivery,
                    DeliveryStatus.UNCERTAIN,
                    null,
                    null,
                    new TargetError(
                            TargetError.ATTEMPTS_EXHAUSTED,
                            "The last delivery attempt was interrupted and no attempt is left to learn whether the platform"
                                    + " published the post.",
                            false,
                            Map.of()),
                    delivery.attempts());
        }
        ReauthHold.Decision held = reauthHold.decide(
                delivery.dueAt(), Timestamps.now(clock), delivery.accountId(), delivery.heldAccount());
        if (!held.proceeds()) {
            return hold(delivery, held, delivery.heldAccount(), false);
        }
        return usage.check(
                        delivery.workspaceId(),
                        delivery.mode(),
                        delivery.reservationId(),
                        delivery.accountId(),
                        Timestamps.now(clock))
                .map(Optional::of)
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf(
                            "usage check of post %s to account %s could not be made: %s",
                            delivery.postId(), delivery.accountId(), failure.toString());
                    return Optional.<UsageVerdict>empty();
                })
                .flatMap(verdict -> {
                    if (verdict.isEmpty()) {
                        return defer(delivery, false);
                    }
                    if (!verdict.get().allowed()) {
                        return finish(
                                delivery,
                                DeliveryStatus.FAILED,
                                null,
                                null,
                                verdict.get().refusal(),
                                delivery.attempts());
                    }
                    return publish(delivery);
                });
    }

    /**
     * Counts the attempt before calling the provider, so a call interrupted by a crash still counts. A delivery
     * whose lease lapsed during its last attempt gets one more call: with the same idempotency token it only
     * learns what the interrupted call did. If that one is interrupted too, the outcome is uncertain.
     */
    private Uni<Void> publish(LeasedDelivery delivery) {
        Instant now = Timestamps.now(clock);
        return deliveries.startAttempt(delivery, now, now.plus(config.lease())).flatMap(started -> {
            if (started.isEmpty()) {
                return lostLease(delivery);
            }
            int attempt = started.get();
            PublishRequest request = PublishRequest.of(delivery, attempt);
            Timer.Sample call = Timer.start(metrics);
            Publisher publisher = publishers.of(delivery.mode(), delivery.platform());
            // An upload outlasts one lease: its lease is renewed while the call runs, bounded by the ingest timeout.
            Cancellable renewal = publisher.ingestsMedia() ? renewLeaseWhileCalling(delivery) : () -> {};
            return Uni.createFrom()
                    .deferred(() -> publisher.publish(request))
                    .ifNoItem()
                    .after(publisher.ingestsMedia() ? config.ingestTimeout() : config.publishTimeout())
                    .fail()
                    .onTermination()
                    .invoke(renewal::cancel)
                    .map(Optional::of)
                    .onFailure(AccessUnavailable.class)
                    .recoverWithItem(failure -> {
                        LOG.warnf(
                                "post %s to account %s: %s",
                                delivery.postId(), delivery.accountId(), failure.getMessage());
                        return Optional.empty();
                    })
                    .onFailure()
                    .recoverWithItem(failure -> {
                        PlatformAnswerUnreadable unreadable = PlatformAnswerUnreadable.in(failure);
                        if (unreadable != null) {
                            // The platform answered, not in a form Herald uses: final, it may have published.
                            return Optional.of(PublishOutcome.failed(
                                    UntrustedAnswers.unreadable(delivery.platform(), unreadable)));
                        }
                        LOG.warnf(
                                "publishing post %s to account %s (attempt %d) failed: %s",
                                delivery.postId(), delivery.accountId(), attempt, failure.toString());
                        // No answer: the platform may have published all the same.
                        return Optional.of(PublishOutcome.unknown(ErrorTable.HTTP.error(
                                ErrorTable.shared("no_answer"),
                                "The platform did not answer the delivery attempt",
                                0,
                                null,
                                null,
                                Map.of())));
                    })
                    .flatMap(outcome -> {
                        call.stop(metrics.timer(
                                "herald.delivery.attempts",
                                "platform",
                                delivery.platform().wireName(),
                                "mode",
                                delivery.mode().wireName(),
                                "outcome",
                                outcome.map(DeliveryAttempts::callOutcome).orElse("postponed")));
                        // Nothing reached the platform: the attempt is given back, like a usage check that could not be
                        // made.
                        return outcome.isPresent() ? record(delivery, attempt, outcome.get()) : defer(delivery, true);
                    });
        });
    }

    private Cancellable renewLeaseWhileCalling(LeasedDelivery delivery) {
        return Multi.createFrom()
                .ticks()
                .every(config.lease().dividedBy(3))
                .onItem()
                .transformToUniAndConcatenate(tick -> deliveries
                        .renewLease(delivery, Timestamps.now(clock).plus(config.lease()))
                        .onFailure()
                        .recoverWithItem(true))
                .subscribe()
                .with(held -> {
                    if (!held) {
                        LOG.warnf(
                                "post %s to account %s: lease lost while uploading",
                                delivery.postId(), delivery.accountId());
                    }
                });
    }

    private static String callOutcome(PublishOutcome outcome) {
        if (outcome.published()) {
            return "published";
        }
        if (outcome.isLater()) {
            return "later";
        }
        return outcome.error().retryable() ? "retryable_failure" : "failed";
    }

    private Uni<Void> record(LeasedDelivery delivery, int attempt, PublishOutcome outcome) {
        if (outcome.isLater()) {
            return checkLater(delivery, attempt, outcome.checkAgainIn());
        }
        if (outcome.published()) {
            return finish(delivery, DeliveryStatus.PUBLISHED, outcome.providerPostId(), outcome.url(), null, attempt);
        }
        TargetError error = outcome.error();
        if (TargetError.ACCOUNT_REAUTH_REQUIRED.equals(error.code())) {
            // accounts-service refused the live account's access before any platform call: the account.reauth_required
            // event may not have arrived yet, so the refusal holds the target as that event would.
            Object reconnectUrl =
                    error.details() == null ? null : error.details().get("reconnect_url");
            LeasedDelivery.HeldAccount refused =
                    new LeasedDelivery.HeldAccount(reconnectUrl == null ? null : reconnectUrl.toString());
            return hold(
                    delivery,
                    reauthHold.decide(delivery.dueAt(), Timestamps.now(clock), delivery.accountId(), refused),
                    refused,
                    true);
        }
        if (!error.retryable() || attempt >= config.maxAttempts()) {
            // A last call whose outcome is unknown leaves the target uncertain, for the reconciler to settle.
            return finish(
                    delivery,
                    outcome.mayHavePublished() ? DeliveryStatus.UNCERTAIN : DeliveryStatus.FAILED,
                    null,
                    null,
                    error,
                    attempt);
        }
        Instant now = Timestamps.now(clock);
        Duration wait = backoff.before(attempt, providerAsked(error));
        return deliveries.scheduleRetry(delivery, error, now.plus(wait), now).flatMap(held -> {
            if (!held) {
                return lostLease(delivery);
            }
            LOG.infof(
                    "post %s to account %s: attempt %d failed (%s), retry in %d ms",
                    delivery.postId(), delivery.accountId(), attempt, error.code(), wait.toMillis());
            return Uni.createFrom().voidItem();
        });
    }

    private Uni<Void> checkLater(LeasedDelivery delivery, int attempt, Duration wait) {
        Instant now = Timestamps.now(clock);
        return deliveries.checkLater(delivery, now.plus(wait), now).flatMap(held -> {
            if (!held) {
                return lostLease(delivery);
            }
            LOG.debugf(
                    "post %s to account %s: call %d is not final yet, next look in %d ms",
                    delivery.postId(), delivery.accountId(), attempt, wait.toMillis());
            return Uni.createFrom().voidItem();
        });
    }

    /** The provider's Retry-After, as publishers put it in the error's {@code details.retry_after_seconds}; null if none. */
    static Duration providerAsked(TargetError error) {
        Object seconds = error.details() == null ? null : error.details().get("retry_after_seconds");
        return seconds instanceof Number number && number.longValue() >= 0
                ? Duration.ofSeconds(number.longValue())
                : null;
    }

    /**
     * Postpones a delivery that a Herald service kept from being attempted: usage-service could not check it, or
     * ({@code attemptStarted}) accounts-service could not give the account's access, after the attempt was counted.
     */
    private Uni<Void> defer(LeasedDelivery delivery, boolean attemptStarted) {
        int deferrals = delivery.deferrals() + 1;
        Instant now = Timestamps.now(clock);
        Duration wait = backoff.before(deferrals);
        return deliveries
                .defer(delivery, deferrals, attemptStarted, now.plus(wait), now)
                .flatMap(held -> {
                    if (!held) {
                        return lostLease(delivery);
                    }
                    LOG.infof(
                            "post %s to account %s postponed %d ms: %s could not be asked",
                            delivery.postId(),
                            delivery.accountId(),
                            wait.toMillis(),
                            attemptStarted ? "accounts-service" : "usage-service");
                    return Uni.createFrom().voidItem();
                });
    }

    /**
     * Acts on a {@link ReauthHold} decision that does not proceed: holds the delivery until its next look, or fails it
     * past the hold deadline through the ordinary final path (so posts-service releases its reservation). {@code
     * attemptStarted}: the attempt {@link DeliveryStatements#startAttempt} counted is given back, no platform was called.
     */
    private Uni<Void> hold(
            LeasedDelivery delivery,
            ReauthHold.Decision decision,
            LeasedDelivery.HeldAccount account,
            boolean attemptStarted) {
        Instant now = Timestamps.now(clock);
        if (!decision.waits()) {
            return finish(delivery, DeliveryStatus.FAILED, null, null, decision.error(), delivery.attempts());
        }
        TargetError waiting = ReauthHold.waiting(delivery.accountId(), account.reconnectUrl());
        return deliveries
                .hold(
                        delivery,
                        waiting,
                        attemptStarted,
                        decision.waitUntil(),
                        now,
                        TargetCompletedOutbox.entry(
                                announcement(
                                        delivery,
                                        PostTarget.QUEUED,
                                        null,
                                        null,
                                        waiting,
                                        delivery.attempts() - (attemptStarted ? 1 : 0),
                                        null,
                                        now),
                                delivery.traceParent()))
                .flatMap(held -> {
                    if (!held) {
                        return lostLease(delivery);
                    }
                    LOG.infof(
                            "post %s to account %s held until %s: the account needs re-authorization",
                            delivery.postId(), delivery.accountId(), decision.waitUntil());
                    return Uni.createFrom().voidItem();
                });
    }

    /** The delivery's {@code target.completed} ({@code completedAt} null while it is not final). */
    private static TargetCompletedEvent announcement(
            LeasedDelivery delivery,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            int attempts,
            Instant completedAt,
            Instant now) {
        return TargetCompletedOutbox.event(delivery, status, providerPostId, url, error, attempts, completedAt, now);
    }

    /** Makes the delivery final and puts its target.completed in the outbox, in one statement. */
    private Uni<Void> finish(
            LeasedDelivery delivery,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            int attempts) {
        Instant now = Timestamps.now(clock);
        TargetCompletedEvent event = announcement(delivery, status, providerPostId, url, error, attempts, now, now);
        Instant reconcileAt = DeliveryStatus.UNCERTAIN.equals(status)
                ? now.plus(config.reconcile().firstLook())
                : null;
        return deliveries
                .complete(new DeliveryStatements.Completion(
                        delivery,
                        status,
                        providerPostId,
                        url,
                        error,
                        now,
                        reconcileAt,
                        TargetCompletedOutbox.entry(event, delivery.traceParent())))
                .flatMap(held -> {
                    if (!held) {
                        return lostLease(delivery);
                    }
                    relay.nudge();
                    metrics.counter(
                                    "herald.deliveries",
                                    "platform",
                                    delivery.platform().wireName(),
                                    "mode",
                                    delivery.mode().wireName(),
                                    "outcome",
                                    status)
                            .increment();
                    // The trace id is written out: this line runs after the attempt's span stopped being current.
                    LOG.infof(
                            "post %s to account %s (%s, %s): %s after %d attempt(s)%s, trace %s",
                            delivery.postId(),
                            delivery.accountId(),
                            delivery.platform().wireName(),
                            delivery.mode() == Mode.LIVE ? "live" : "test",
                            status,
                            attempts,
                            error == null ? "" : " (" + error.code() + ")",
                            TraceParents.traceId(delivery.traceParent()));
                    return Uni.createFrom().voidItem();
                });
    }

    private static Uni<Void> lostLease(LeasedDelivery delivery) {
        LOG.infof(
                "post %s to account %s: lease lost to another worker; this worker's outcome is dropped",
                delivery.postId(), delivery.accountId());
        return Uni.createFrom().voidItem();
    }
}
