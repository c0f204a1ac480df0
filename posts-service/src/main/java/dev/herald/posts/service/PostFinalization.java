package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.messaging.PostEventOutbox;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostTargetRepository;
import dev.herald.posts.repository.ProfileHoldReleaseRepository;
import dev.herald.posts.repository.TargetOutcomeStatements;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Applies delivery outcomes: a target takes the worker's result, and once every target is final the post
 * takes its final status ({@code published}, {@code partially_failed}, {@code failed}) and {@code post.finalized}
 * is emitted in the same transaction, with the event id recorded so a redelivered event changes nothing.
 */
@ApplicationScoped
public class PostFinalization {
    private static final Logger LOG = Logger.getLogger(PostFinalization.class);
    private static final Set<String> OUTCOMES = Set.of(PostTarget.PUBLISHED, PostTarget.FAILED, PostTarget.UNCERTAIN);

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final ProfileHoldReleaseRepository holdReleases;
    private final PostEventOutbox events;
    private final PostViews views;
    private final PostDispatcher dispatcher;
    private final TargetOutcomeStatements outcomes;
    private final Clock clock;

    public PostFinalization(
            PostRepository posts,
            PostTargetRepository targets,
            ProfileHoldReleaseRepository holdReleases,
            PostEventOutbox events,
            PostViews views,
            PostDispatcher dispatcher,
            TargetOutcomeStatements outcomes,
            Clock clock) {
        this.posts = posts;
        this.targets = targets;
        this.holdReleases = holdReleases;
        this.events = events;
        this.views = views;
        this.dispatcher = dispatcher;
        this.outcomes = outcomes;
        this.clock = clock;
    }

    /**
     * Applies a delivery outcome once. {@code traceParent} is the trace the outcome came with (the request that
     * accepted the post, through delivery): a {@code post.finalized} it causes carries it on to webhooks-service.
     */
    public Uni<Void> apply(TargetCompletedEvent event, String traceParent) {
        return applyInOneStatement(event, traceParent)
                .flatMap(finalized -> finalized != null
                        ? Uni.createFrom().item(finalized)
                        : Panache.withTransaction(() -> ProcessedEvents.markProcessed(event.eventId())
                                .flatMap(first -> {
                                    if (!first) {
                                        return Uni.createFrom().item(false);
                                    }
                                    return settle(event, traceParent);
                                })))
                .invoke(finalized -> {
                    if (finalized) {
                        dispatcher.eventsWritten();
                    }
                })
                .replaceWithVoid();
    }

    /**
     * The common case in one statement ({@link TargetOutcomeStatements}): the post and its targets are read without a
     * lock, the outcome and what follows from it are worked out here, and the statement writes them if the post is
     * still as read. True when the post became final, false when not; null when the statement did not apply (an
     * outcome the transaction must judge and log, a redelivery, or a post that changed since it was read). The
     * transaction then applies the event as it finds it.
     */
    private Uni<Boolean> applyInOneStatement(TargetCompletedEvent event, String traceParent) {
        if (event.status() == null || !OUTCOMES.contains(event.status())) {
            return Uni.createFrom().nullItem();
        }
        return Panache.withSession(() -> posts.findWithTargets(event.postId())).flatMap(found -> {
            if (found == null
                    || !found.post().workspaceId.equals(event.workspaceId())
                    || !found.post().mode.equals(event.mode().wireName())) {
                return Uni.createFrom().nullItem();
            }
            PostEntity post = found.post();
            List<PostTargetEntity> rows = found.targets();
            PostTargetEntity target = rows.stream()
                    .filter(row -> row.accountId.equals(event.accountId()))
                    .findFirst()
                    .orElse(null);
            if (target == null || target.isFinal()) {
                return Uni.createFrom().nullItem();
            }
            // The session is closed: these entities are changed in memory only, to work out the new state.
            Instant readUpdatedAt = post.updatedAt;
            String readStatus = post.status;
            String readTargetStatus = target.status;
            Instant now = Timestamps.now(clock);
            takeOutcome(post, target, event, now);
            String finalStatus = finalStatus(rows);
            OutboxWriter.Entry finalized = null;
            List<String> holds = List.of();
            if (finalStatus != null) {
                post.status = finalStatus;
                post.finalizedAt = now;
                finalized =
                        events.finalizedEntry(post.workspaceId, event.mode(), views.toWire(post, rows), traceParent);
                holds = List.copyOf(PostService.profileIds(rows));
            }
            TargetOutcomeStatements.Outcome outcome = new TargetOutcomeStatements.Outcome(
                    post, readUpdatedAt, readStatus, target, readTargetStatus, event.eventId(), finalized, holds);
            return outcomes.apply(outcome).map(applied -> applied ? finalStatus != null : null);
        });
    }

    /** True when this outcome made the post final. */
    private Uni<Boolean> settle(TargetCompletedEvent event, String traceParent) {
        if (event.status() == null || !OUTCOMES.contains(event.status())) {
            LOG.errorf("target.completed %s has status %s; ignored", event.eventId(), event.status());
            return Uni.createFrom().item(false);
        }
        // The post's lock orders concurrent outcomes of its targets (the event key keeps them on one partition,
        // but a rebalance can hand the partition over mid-flight).
        return posts.findForUpdate(event.postId()).flatMap(post -> {
            if (post == null
                    || !post.workspaceId.equals(event.workspaceId())
                    || !post.mode.equals(event.mode().wireName())) {
                LOG.errorf(
                        "target.completed %s names post %s, which this tenant does not have; ignored",
                        event.eventId(), event.postId());
                return Uni.createFrom().item(false);
            }
            return targets.forPost(post.id).flatMap(rows -> {
                PostTargetEntity target = rows.stream()
                        .filter(row -> row.accountId.equals(event.accountId()))
                        .findFirst()
                        .orElse(null);
                if (target == null) {
                    LOG.errorf(
                            "target.completed %s names account %s, not a target of post %s; ignored",
                            event.eventId(), event.accountId(), post.id);
                    return Uni.createFrom().item(false);
                }
                if (target.isFinal()) {
                    // Already settled (for instance canceled, or a reconciler got there first): the first outcome
                    // stands.
                    LOG.warnf(
                            "post %s target %s is already %s; outcome %s ignored",
                            post.id, target.accountId, target.status, event.status());
                    return Uni.createFrom().item(false);
                }
                Instant now = Timestamps.now(clock);
                takeOutcome(post, target, event, now);
                return finalizeIfDone(post, rows, now, traceParent);
            });
        });
    }

    private void takeOutcome(PostEntity post, PostTargetEntity target, TargetCompletedEvent event, Instant now) {
        target.status = event.status();
        target.attempts = Math.max(target.attempts, event.attempts());
        target.providerPostId = event.providerPostId();
        target.url = event.url();
        target.error = event.error() == null ? null : views.json(event.error());
        target.completedAt = PostTarget.UNCERTAIN.equals(event.status()) ? null : event.completedAt();
        target.updatedAt = now;
        post.updatedAt = now;
    }

    /** The post's final status and {@code post.finalized}, once every target is final; true when that happened. */
    private Uni<Boolean> finalizeIfDone(PostEntity post, List<PostTargetEntity> rows, Instant now, String traceParent) {
        String finalStatus = finalStatus(rows);
        if (finalStatus == null) {
            return Uni.createFrom().item(false);
        }
        post.status = finalStatus;
        post.finalizedAt = now;
        Post wire = views.toWire(post, rows);
        return events.finalized(post.workspaceId, Mode.fromWire(post.mode).orElseThrow(), wire, traceParent)
                .chain(() -> holdReleases.schedule(
                        post.workspaceId,
                        Mode.fromWire(post.mode).orElseThrow(),
                        post.id,
                        PostService.profileIds(rows)))
                .replaceWith(true);
    }

    /** The post's final status once every target is final, else null. */
    static String finalStatus(List<PostTargetEntity> rows) {
        long published = rows.stream()
                .filter(row -> PostTarget.PUBLISHED.equals(row.status))
                .count();
        long failed = rows.stream()
                .filter(row -> PostTarget.FAILED.equals(row.status))
                .count();
        if (published + failed < rows.size()) {
            return null;
        }
        if (failed == 0) {
            return Post.PUBLISHED;
        }
        return published == 0 ? Post.FAILED : Post.PARTIALLY_FAILED;
    }
}
