package dev.herald.posts.service;

import dev.herald.common.outbox.OutboxRelayJob;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The half of "nothing stays stuck" only posts-service can see: a post handed to delivery whose {@code post.accepted}
 * never reached delivery-worker (lost with a broker's data, skipped as unreadable) leaves its targets {@code publishing}
 * with no worker that knows them. Every {@code herald.posts.handover-check-interval} (1 min), a publishing post handed
 * over more than {@code herald.posts.handover-timeout} (10 min) ago whose targets are still {@code publishing} is handed
 * over once more, naming those targets only: the worker adds nothing for a target it has (its own watchdog bounds that
 * one, {@code StuckDeliveryWatchdog}), and settles one it never had as a handover that came late (failed
 * {@code delivery_timeout}, through the ordinary {@code target.completed}). Targets {@code queued} (an account hold) or
 * {@code uncertain} came back from the worker, so it has them. The decision stays with the worker, the one service that
 * can fence a delivery and ask its platform; posts-service never fails a target the worker might still publish.
 * Safe with several replicas: posts are locked with {@code FOR UPDATE SKIP LOCKED}, and {@code handover_repeated_at}
 * makes it once per post.
 */
@ApplicationScoped
public class HandoverWatchdog {
    private static final Logger LOG = Logger.getLogger(HandoverWatchdog.class);
    private static final int BATCH = 100;

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final PostEventOutbox events;
    private final PostViews views;
    private final OutboxRelayJob relay;
    private final PostsConfig config;
    private final Clock clock;
    private final RepeatingTask task;

    public HandoverWatchdog(
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
        this.task = new RepeatingTask(vertx, "handover watchdog", config.handoverCheckInterval(), this::repeatAll);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** The targets a repeated handover names: those no outcome came back for. */
    static List<PostTargetEntity> unanswered(List<PostTargetEntity> postTargets) {
        return postTargets.stream()
                .filter(target -> PostTarget.PUBLISHING.equals(target.status))
                .toList();
    }

    private Uni<Integer> repeatAll() {
        return repeatUnanswered().flatMap(count -> {
            if (count > 0) {
                relay.nudge();
            }
            return count == BATCH ? repeatAll() : Uni.createFrom().item(count);
        });
    }

    /** One batch in one transaction: the number of posts looked at. */
    public Uni<Integer> repeatUnanswered() {
        return Panache.withTransaction(() -> {
            Instant now = Timestamps.now(clock);
            return posts.lockHandedOverBefore(now.minus(config.handoverTimeout()), BATCH)
                    .flatMap(stale -> {
                        if (stale.isEmpty()) {
                            return Uni.createFrom().item(0);
                        }
                        return targets.forPosts(
                                        stale.stream().map(post -> post.id).toList())
                                .flatMap(all -> {
                                    Map<String, List<PostTargetEntity>> byPost =
                                            all.stream().collect(Collectors.groupingBy(target -> target.postId));
                                    List<PostEventOutbox.Handover> again = new ArrayList<>();
                                    for (PostEntity post : stale) {
                                        List<PostTargetEntity> postTargets = byPost.getOrDefault(post.id, List.of());
                                        post.handoverRepeatedAt = now;
                                        List<PostTargetEntity> unanswered = unanswered(postTargets);
                                        if (!unanswered.isEmpty()) {
                                            LOG.warnf(
                                                    "post %s: %d target(s) unanswered %s after the handover at %s;"
                                                            + " handed over again",
                                                    post.id,
                                                    unanswered.size(),
                                                    config.handoverTimeout(),
                                                    post.dispatchedAt);
                                            again.add(new PostEventOutbox.Handover(
                                                    post.workspaceId,
                                                    views.toWire(post, postTargets),
                                                    PostDispatcher.deliveriesOf(unanswered),
                                                    post.traceParent));
                                        }
                                    }
                                    return again.isEmpty()
                                            ? Uni.createFrom().item(stale.size())
                                            : events.accepted(again).replaceWith(stale.size());
                                });
                    });
        });
    }
}
