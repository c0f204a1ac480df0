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
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostTargetRepository;
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
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Hands due posts to delivery: queued posts whose time has come become {@code publishing}, with a
 * {@code post.accepted} event in the same transaction. A post due at once is handed over by its acceptance
 * transaction ({@link PostService}); this releases scheduled posts at {@code scheduled_at}. Safe with several
 * replicas: due rows are claimed with {@code FOR UPDATE SKIP LOCKED}, and a post that was canceled first is no
 * longer queued. Runs every 200 ms, so a scheduled post leaves well within a second of its time.
 */
@ApplicationScoped
public class PostDispatcher {
    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final PostEventOutbox events;
    private final PostViews views;
    private final OutboxRelayJob relay;
    private final PostsConfig config;
    private final Clock clock;
    private final RepeatingTask task;

    public PostDispatcher(
            PostRepository posts,
            PostTargetRepository targets,
            PostEventOutbox events,
            PostViews views,
            OutboxRelayJob relay,
            PostsConfig config,
            Clock clock,
            Vertx vertx) {
        this.posts = posts;
        this.targets = targets;
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
        return dispatchDue().flatMap(count -> {
            if (count > 0) {
                relay.nudge();
            }
            return count == config.dispatchBatchSize()
                    ? dispatchAllDue()
                    : Uni.createFrom().voidItem();
        });
    }

    /** One batch in one transaction; the number of posts handed over. */
    Uni<Integer> dispatchDue() {
        return Panache.withTransaction(() -> {
            Instant now = Timestamps.now(clock);
            return posts.lockDue(now, config.dispatchBatchSize()).flatMap(due -> {
                if (due.isEmpty()) {
                    return Uni.createFrom().item(0);
                }
                return targets.forPosts(due.stream().map(post -> post.id).toList())
                        .flatMap(all -> {
                            Map<String, List<PostTargetEntity>> byPost =
                                    all.stream().collect(Collectors.groupingBy(target -> target.postId));
                            List<PostEventOutbox.Handover> handovers = due.stream()
                                    .map(post -> handOver(post, byPost.getOrDefault(post.id, List.of()), now))
                                    .toList();
                            return events.accepted(handovers).replaceWith(due.size());
                        });
            });
        });
    }

    /** Marks the post and its targets publishing (the caller writes them); the event that hands them to delivery. */
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
