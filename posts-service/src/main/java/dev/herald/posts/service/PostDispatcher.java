package dev.herald.posts.service;

import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.outbox.OutboxRelayJob;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.messaging.PostEventOutbox;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.DispatchStatements;
import dev.herald.posts.repository.PostRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Hands due posts to delivery: queued posts whose time has come become {@code publishing}, with a
 * {@code post.accepted} event in the same statement. A post due at once is handed over by its acceptance
 * transaction ({@link PostService}); this releases scheduled posts at {@code scheduled_at}. Safe with several
 * replicas and with cancellation: a post is written only while it is still queued as read, and rows another
 * transaction holds are skipped. Runs every 200 ms, so a scheduled post leaves well within a second of its time.
 */
@ApplicationScoped
public class PostDispatcher {
    private final PostRepository posts;
    private final DispatchStatements statements;
    private final PostEventOutbox events;
    private final PostViews views;
    private final OutboxRelayJob relay;
    private final PostsConfig config;
    private final Clock clock;
    private final RepeatingTask task;

    public PostDispatcher(
            PostRepository posts,
            DispatchStatements statements,
            PostEventOutbox events,
            PostViews views,
            OutboxRelayJob relay,
            PostsConfig config,
            Clock clock,
            Vertx vertx) {
        this.posts = posts;
        this.statements = statements;
        this.events = events;
        this.views = views;
        this.relay = relay;
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "post dispatcher", config.dispatchInterval(), this::dispatchAllDue);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** Events were just committed elsewhere in this service: send them now rather than at the next tick. */
    public void eventsWritten() {
        relay.nudge();
    }

    private Uni<Void> dispatchAllDue() {
        return dispatchDue().flatMap(batch -> {
            if (batch.handedOver() > 0) {
                relay.nudge();
            }
            // A full read means more may be due; a batch that wrote nothing (another replica's, or posts canceled
            // since the read) waits for the next tick rather than reading the same rows again at once.
            return batch.read() == config.dispatchBatchSize() && batch.handedOver() > 0
                    ? dispatchAllDue()
                    : Uni.createFrom().voidItem();
        });
    }

    /** One batch: the due posts read, and those of them this batch handed over. */
    record Batch(int read, int handedOver) {}

    /**
     * One batch: the due posts are read without a lock, their handovers built from the read, and one statement
     * writes those still queued as read ({@link DispatchStatements}).
     */
    Uni<Batch> dispatchDue() {
        Instant now = Timestamps.now(clock);
        return Panache.withSession(() -> posts.findDue(now, config.dispatchBatchSize()))
                .flatMap(due -> {
                    if (due.isEmpty()) {
                        return Uni.createFrom().item(new Batch(0, 0));
                    }
                    List<DispatchStatements.Handover> handovers = due.stream()
                            .map(read -> {
                                Instant readUpdatedAt = read.post().updatedAt;
                                PostEventOutbox.Handover handover = handOver(read.post(), read.targets(), now);
                                return new DispatchStatements.Handover(
                                        read.post().id, readUpdatedAt, events.acceptedEntry(handover));
                            })
                            .toList();
                    return statements
                            .handOverAll(handovers, now)
                            .map(written -> new Batch(due.size(), (int) written.stream()
                                    .filter(Boolean::booleanValue)
                                    .count()));
                });
    }

    /**
     * Marks the post and its targets publishing in memory (the caller writes them); the event that hands them to
     * delivery.
     */
    PostEventOutbox.Handover handOver(PostEntity post, List<PostTargetEntity> postTargets, Instant now) {
        post.status = Post.PUBLISHING;
        post.dispatchedAt = now;
        post.updatedAt = now;
        for (PostTargetEntity target : postTargets) {
            target.status = PostTarget.PUBLISHING;
            target.updatedAt = now;
        }
        return new PostEventOutbox.Handover(
                post.workspaceId, views.toWire(post, postTargets), deliveriesOf(postTargets), post.traceParent);
    }

    /** The deliveries a {@code post.accepted} names for {@code postTargets}. */
    static List<PostAcceptedEvent.Delivery> deliveriesOf(List<PostTargetEntity> postTargets) {
        return postTargets.stream()
                .map(target -> new PostAcceptedEvent.Delivery(
                        target.accountId,
                        Platform.fromWire(target.platform).orElseThrow(),
                        target.accountUsername,
                        target.reservationId))
                .toList();
    }
}
