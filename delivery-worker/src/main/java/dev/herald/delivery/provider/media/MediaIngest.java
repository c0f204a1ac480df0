package dev.herald.delivery.provider.media;

import dev.herald.common.client.UsageClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.config.MediaIngestConfig;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.repository.MediaIngestSlotStatements;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Moves a post's media from its URL to a platform for one destination, in this order, nothing moving before each step
 * has passed:
 * <ol>
 *   <li>the source is checked and measured ({@link MediaSource}: https, public addresses now, a length within
 *       {@code herald.media.max-bytes}) — a refusal fails the target, nothing moved;</li>
 *   <li>{@code media_bytes} is reserved for that length ({@link UsageReservation#mediaBytesId}: one reservation per
 *       destination however often it is attempted, grown if a later attempt finds a larger file; for several items,
 *       {@link #ingestEach}, the sum of their lengths, every item fetched being part of the transfer) —
 *       {@code usage_limit_exceeded} fails the target with usage-service's details, nothing moved;</li>
 *   <li>one of the workspace's concurrent-ingest slots is taken (the plan's {@code concurrent_ingests}, held in the
 *       worker's database across replicas) — when all are busy the delivery waits its turn
 *       ({@link PublishOutcome#later}), it does not fail;</li>
 *   <li>the publisher's upload runs, the slot's lease renewed while it does, and the slot is freed after.</li>
 * </ol>
 * A published target consumes the reservation (the platform has every byte); a target that ends failed (a final error,
 * or its last attempt) releases it; a retryable failure keeps it for the next attempt.
 */
@ApplicationScoped
public class MediaIngest {
    private static final Logger LOG = Logger.getLogger(MediaIngest.class);

    private final MediaSource sources;
    private final StreamingHttp http;
    private final StreamingHttp sourceHttp;
    private final UsageClient usage;
    private final MediaIngestSlotStatements slots;
    private final MediaIngestConfig config;
    private final int maxAttempts;
    private final Clock clock;

    public MediaIngest(
            Vertx vertx,
            UsageClient usage,
            MediaIngestSlotStatements slots,
            MediaIngestConfig config,
            DeliveryConfig delivery,
            Clock clock) {
        this.http = new StreamingHttp(vertx.getDelegate(), config.idleTimeout());
        this.sourceHttp = StreamingHttp.forSources(vertx.getDelegate(), config.idleTimeout());
        this.sources = new MediaSource(vertx.getDelegate(), sourceHttp, config, InetAddress::getAllByName);
        this.usage = usage;
        this.slots = slots;
        this.config = config;
        this.maxAttempts = delivery.maxAttempts();
        this.clock = clock;
    }

    @PreDestroy
    void close() {
        http.close();
        sourceHttp.close();
    }

    /** The HTTP client uploads go through (also for the platform's own small calls around them). */
    public StreamingHttp http() {
        return http;
    }

    public MediaSource sources() {
        return sources;
    }

    /** One attempt at a destination whose platform needs the bytes of its one media item ({@link PublishRequest#medium}). */
    public Uni<PublishOutcome> ingest(
            PublishRequest request, Function<MediaSource.Located, Uni<PublishOutcome>> upload) {
        return ingestEach(request, List.of(request.medium()), located -> upload.apply(located.get(0)));
    }

    /**
     * One attempt at a destination whose platform needs the bytes of several items (a LinkedIn multi-image post):
     * every item is located, in order, before anything is reserved, and the reservation is their sum, since the
     * destination's transfer is all of them; one ingest slot covers the whole transfer.
     */
    public Uni<PublishOutcome> ingestEach(
            PublishRequest request,
            List<Post.Media> items,
            Function<List<MediaSource.Located>, Uni<PublishOutcome>> upload) {
        String reservationId = UsageReservation.mediaBytesId(request.postId(), request.accountId());
        return Multi.createFrom()
                .iterable(items)
                .onItem()
                .transformToUniAndConcatenate(item -> sources.locate(item.url()))
                .collect()
                .asList()
                .flatMap(located -> usage.reserveMediaBytes(
                                request.workspaceId(),
                                request.mode(),
                                reservationId,
                                located.stream()
                                        .mapToLong(MediaSource.Located::size)
                                        .sum(),
                                Timestamps.now(clock))
                        .onFailure()
                        .transform(failure -> new MediaRefused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "Herald could not reserve the media's bytes now (usage-service did not answer); nothing was"
                                        + " uploaded and the delivery is retried.",
                                true,
                                Map.of())))
                        .flatMap(verdict -> verdict.allowed()
                                ? inSlot(request, located, upload)
                                : Uni.createFrom().item(PublishOutcome.failed(verdict.refusal()))))
                .onFailure(MediaRefused.class)
                .recoverWithItem(failure -> PublishOutcome.failed(((MediaRefused) failure).error()))
                .flatMap(outcome -> settle(request, outcome));
    }

    private Uni<PublishOutcome> inSlot(
            PublishRequest request,
            List<MediaSource.Located> located,
            Function<List<MediaSource.Located>, Uni<PublishOutcome>> upload) {
        String holder = request.idempotencyToken();
        return usage.concurrentIngests(request.workspaceId(), request.mode())
                .onFailure()
                .transform(failure -> new MediaRefused(new TargetError(
                        TargetError.PROVIDER_ERROR,
                        "Herald could not read the plan's concurrent ingests now (usage-service did not answer); nothing"
                                + " was uploaded and the delivery is retried.",
                        true,
                        Map.of())))
                .flatMap(limit -> slots.take(
                        request.workspaceId(),
                        holder,
                        Math.max(1, limit),
                        Timestamps.now(clock),
                        Timestamps.now(clock).plus(config.slotLease())))
                .flatMap(taken -> {
                    if (!taken) {
                        LOG.debugf(
                                "post %s to account %s waits for a media ingest slot of workspace %s",
                                request.postId(), request.accountId(), request.workspaceId());
                        return Uni.createFrom().item(PublishOutcome.later(config.slotWait()));
                    }
                    Cancellable renewal = renewWhileUploading(request.workspaceId(), holder);
                    return Uni.createFrom()
                            .deferred(() -> upload.apply(located))
                            .onTermination()
                            .call(() -> {
                                renewal.cancel();
                                return slots.free(request.workspaceId(), holder)
                                        .onFailure()
                                        .recoverWithNull();
                            });
                });
    }

    private Cancellable renewWhileUploading(String workspaceId, String holder) {
        Duration every = config.slotLease().dividedBy(3);
        return Multi.createFrom()
                .ticks()
                .every(every)
                .onItem()
                .transformToUniAndConcatenate(tick -> slots.renew(
                                workspaceId, holder, Timestamps.now(clock).plus(config.slotLease()))
                        .onFailure()
                        .recoverWithItem(false))
                .subscribe()
                .with(held -> {
                    if (!held) {
                        LOG.warnf(
                                "media ingest slot of %s in workspace %s lapsed while uploading", holder, workspaceId);
                    }
                });
    }

    /**
     * Charges or frees the destination's media reservation for {@code outcome}: consumed when published (repeatable:
     * usage-service consumes a reservation once), released when the destination ends failed, kept otherwise. For a
     * publisher that learned the outcome without ingesting (its post was published by an earlier attempt).
     */
    public Uni<PublishOutcome> settle(PublishRequest request, PublishOutcome outcome) {
        String reservationId = UsageReservation.mediaBytesId(request.postId(), request.accountId());
        if (outcome.published()) {
            return usage.consume(request.workspaceId(), request.mode(), reservationId, Timestamps.now(clock))
                    .onFailure()
                    .invoke(failure -> LOG.warnf(
                            "media reservation %s could not be consumed: %s", reservationId, failure.toString()))
                    .onFailure()
                    .recoverWithNull()
                    .replaceWith(outcome);
        }
        // An unknown outcome may have completed the transfer: the reservation waits for the reconciler's answer.
        if (outcome.isLater()
                || outcome.mayHavePublished()
                || (outcome.error().retryable() && request.attempt() < maxAttempts && !request.reconciling())) {
            return Uni.createFrom().item(outcome);
        }
        // The destination ends here without a completed transfer: the bytes are not charged.
        return usage.release(request.workspaceId(), request.mode(), reservationId)
                .onFailure()
                .invoke(failure ->
                        LOG.warnf("media reservation %s could not be released: %s", reservationId, failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWith(outcome);
    }
}
