package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.messaging.FirstCommentJob;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Applies delivery outcomes: a target takes the worker's result, and once every target is final the post
 * takes its final status ({@code published}, {@code partially_failed}, {@code failed}) and {@code post.finalized}
 * is emitted in the same transaction, with the event id recorded so a redelivered event changes nothing.
 *
 * <p>Two paths write an outcome, for throughput (every target of every post passes here; bench/README.md, "Statements
 * per post"): one statement against the posts as read without a lock ({@link TargetOutcomeStatements}; one for a
 * whole poll of outcomes, one per post), and, for an outcome it does not write, a transaction against the locked
 * post. Both apply the same {@link TargetOutcomeDecision}, written into the entities by {@code take}: the statement
 * only guards that the post is still as read and the event new, and writes the values decided. One path alone would cost either the transaction's round trips on every outcome, or a
 * statement that also judges and logs the odd cases (redeliveries, concurrent outcomes of one post, events naming
 * nothing) which the transaction handles.
 *
 * <p>First comments: a target's outcome also settles its first comment where it can ({@link FirstComments#afterTargetOutcome}:
 * the sandbox's answer for a test target, {@code target_not_published} for one that failed). While a published target's
 * first comment is still pending (live: {@code FirstCommentJob} posts it, nudged from here), the post becomes final
 * without its {@code post.finalized}, which {@link FirstCommentPosting} writes when it settles the last one, so the event
 * carries every target's outcome.
 */
@ApplicationScoped
public class PostFinalization {
    private static final Logger LOG = Logger.getLogger(PostFinalization.class);

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final ProfileHoldReleaseRepository holdReleases;
    private final PostEventOutbox events;
    private final PostViews views;
    private final PostDispatcher dispatcher;
    private final TargetOutcomeStatements outcomes;
    private final FirstCommentJob firstComments;
    private final Clock clock;

    public PostFinalization(
            PostRepository posts,
            PostTargetRepository targets,
            ProfileHoldReleaseRepository holdReleases,
            PostEventOutbox events,
            PostViews views,
            PostDispatcher dispatcher,
            TargetOutcomeStatements outcomes,
            FirstCommentJob firstComments,
            Clock clock) {
        this.posts = posts;
        this.targets = targets;
        this.holdReleases = holdReleases;
        this.events = events;
        this.views = views;
        this.dispatcher = dispatcher;
        this.outcomes = outcomes;
        this.firstComments = firstComments;
        this.clock = clock;
    }

    /** An outcome as received, with the trace it came with (the request that accepted the post, through delivery). */
    public record Received(TargetCompletedEvent event, String traceParent) {}

    /**
     * Applies each of a poll's outcomes once, in the poll's order for the outcomes of one post. They go in rounds of
     * at most one outcome per post ({@link OutcomeRounds}), each round one read and one statement; an outcome the
     * statement did not write takes the transaction, one at a time. A {@code post.finalized} an outcome causes
     * carries the outcome's trace on to webhooks-service.
     */
    public Uni<Void> applyAll(List<Received> poll) {
        Uni<Boolean> finalized = Uni.createFrom().item(false);
        for (List<Received> round :
                OutcomeRounds.of(poll, received -> received.event().postId())) {
            finalized = finalized.flatMap(before -> applyRound(round).map(now -> before || now));
        }
        return finalized
                .invoke(any -> {
                    if (any) {
                        dispatcher.eventsWritten();
                    }
                    if (poll.stream()
                            .anyMatch(received -> received.event().mode() == Mode.LIVE
                                    && PostTarget.PUBLISHED.equals(
                                            received.event().status()))) {
                        // Its first comment, if pending, is posted now rather than at the job's next tick.
                        firstComments.nudge();
                    }
                })
                .replaceWithVoid();
    }

    /** True when one of the round's outcomes made its post final and wrote its event. */
    private Uni<Boolean> applyRound(List<Received> round) {
        return applyInOneStatement(round).flatMap(results -> {
            Uni<Boolean> finalized = Uni.createFrom().item(results.contains(true));
            for (int i = 0; i < round.size(); i++) {
                if (results.get(i) == null) {
                    Received received = round.get(i);
                    finalized = finalized.flatMap(
                            before -> applyInTransaction(received).map(now -> before || now));
                }
            }
            return finalized;
        });
    }

    /**
     * The common case in one statement ({@link TargetOutcomeStatements}): the posts and their targets are read
     * without a lock, each outcome is decided from that read, and the statement writes those whose post is still as
     * read. Per outcome: true when its post became final, false when not; null when the statement did not write it
     * (an outcome the transaction must judge and log, a redelivery, or a post that changed since it was read).
     */
    private Uni<List<Boolean>> applyInOneStatement(List<Received> round) {
        Set<String> postIds =
                round.stream().map(received -> received.event().postId()).collect(Collectors.toSet());
        return Panache.withSession(() -> posts.findAllWithTargets(postIds)).flatMap(found -> {
            List<Boolean> results = new ArrayList<>(Collections.nCopies(round.size(), null));
            List<Integer> positions = new ArrayList<>();
            List<TargetOutcomeStatements.Outcome> writes = new ArrayList<>();
            for (int i = 0; i < round.size(); i++) {
                Received received = round.get(i);
                TargetOutcomeStatements.Outcome outcome =
                        outcome(received, found.get(received.event().postId()));
                if (outcome != null) {
                    positions.add(i);
                    writes.add(outcome);
                }
            }
            if (writes.isEmpty()) {
                return Uni.createFrom().item(results);
            }
            return outcomes.applyAll(writes).map(applied -> {
                for (int j = 0; j < applied.size(); j++) {
                    if (applied.get(j)) {
                        results.set(positions.get(j), writes.get(j).finalized() != null);
                    }
                }
                return results;
            });
        });
    }

    /**
     * The outcome's writes, decided from {@code found} (read without a lock, its session closed: the entities are
     * changed in memory only, to carry the new state); null when it does not apply, which the transaction judges.
     */
    private TargetOutcomeStatements.Outcome outcome(Received received, PostRepository.WithTargets found) {
        TargetCompletedEvent event = received.event();
        PostEntity post = found == null ? null : found.post();
        List<PostTargetEntity> rows = found == null ? List.of() : found.targets();
        TargetOutcomeDecision decision = TargetOutcomeDecision.of(event, post, rows);
        if (!decision.applies()) {
            return null;
        }
        Instant readUpdatedAt = post.updatedAt;
        String readStatus = post.status;
        String readTargetStatus = decision.target().status;
        take(decision, post, Timestamps.now(clock));
        OutboxWriter.Entry finalized = null;
        List<String> holds = List.of();
        if (decision.finalStatus() != null) {
            Post wire = views.toWire(post, rows);
            // The final event waits for the first comments still to post (FirstCommentPosting sends it then).
            finalized = FirstComments.awaited(wire.targets())
                    ? null
                    : events.finalizedEntry(post.workspaceId, event.mode(), wire, received.traceParent());
            holds = List.copyOf(AcceptanceHolds.profileIds(rows));
        }
        return new TargetOutcomeStatements.Outcome(
                post,
                readUpdatedAt,
                readStatus,
                decision.target(),
                readTargetStatus,
                event.eventId(),
                finalized,
                holds);
    }

    /**
     * The outcome against the locked post, once (its processed mark); true when it made the post final and wrote its
     * event.
     */
    private Uni<Boolean> applyInTransaction(Received received) {
        TargetCompletedEvent event = received.event();
        return Panache.withTransaction(() -> ProcessedEvents.markProcessed(event.eventId())
                .flatMap(first -> first
                        ? settle(event, received.traceParent())
                        : Uni.createFrom().item(false)));
    }

    /** True when this outcome made the post final and wrote its event. */
    private Uni<Boolean> settle(TargetCompletedEvent event, String traceParent) {
        // The post's lock orders concurrent outcomes of its targets (the event key keeps them on one partition,
        // but a rebalance can hand the partition over mid-flight).
        return posts.findForUpdate(event.postId())
                .flatMap(post -> targets.forPost(event.postId()).flatMap(rows -> {
                    TargetOutcomeDecision decision = TargetOutcomeDecision.of(event, post, rows);
                    if (!decision.applies()) {
                        logIgnored(event, decision);
                        return Uni.createFrom().item(false);
                    }
                    take(decision, post, Timestamps.now(clock));
                    if (decision.finalStatus() == null) {
                        return Uni.createFrom().item(false);
                    }
                    Mode mode = Mode.fromWire(post.mode).orElseThrow();
                    Post wire = views.toWire(post, rows);
                    Uni<Void> holds =
                            holdReleases.schedule(post.workspaceId, mode, post.id, AcceptanceHolds.profileIds(rows));
                    if (FirstComments.awaited(wire.targets())) {
                        return holds.replaceWith(false);
                    }
                    return events.finalized(post.workspaceId, mode, wire, traceParent)
                            .chain(() -> holds)
                            .replaceWith(true);
                }));
    }

    /** Writes the decided outcome into the post and its target (managed entities, or detached ones read before). */
    private void take(TargetOutcomeDecision decision, PostEntity post, Instant now) {
        TargetOutcomeDecision.TargetResult result = decision.result();
        PostTargetEntity target = decision.target();
        target.status = result.status();
        target.attempts = result.attempts();
        target.providerPostId = result.providerPostId();
        target.url = result.url();
        target.error = result.error() == null ? null : views.json(result.error());
        target.completedAt = result.completedAt();
        PostTarget.FirstCommentStatus firstComment = views.firstComment(target);
        PostTarget.FirstCommentStatus after = FirstComments.afterTargetOutcome(
                firstComment,
                result.status(),
                Mode.TEST.wireName().equals(post.mode),
                () -> SandboxComments.firstComment(
                        post.id,
                        target.accountId,
                        views.firstCommentText(
                                post.firstComment,
                                post.platformOptions,
                                Platform.fromWire(target.platform).orElseThrow())));
        if (after != firstComment) {
            target.firstComment = views.json(after);
        }
        target.updatedAt = now;
        post.updatedAt = now;
        if (decision.finalStatus() != null) {
            post.status = decision.finalStatus();
            post.finalizedAt = now;
        }
    }

    private static void logIgnored(TargetCompletedEvent event, TargetOutcomeDecision decision) {
        switch (decision.ignored()) {
            case NOT_AN_OUTCOME ->
                LOG.errorf("target.completed %s has status %s; ignored", event.eventId(), event.status());
            case NOT_THE_TENANTS_POST ->
                LOG.errorf(
                        "target.completed %s names post %s, which this tenant does not have; ignored",
                        event.eventId(), event.postId());
            case NOT_A_TARGET ->
                LOG.errorf(
                        "target.completed %s names account %s, not a target of post %s; ignored",
                        event.eventId(), event.accountId(), event.postId());
            case TARGET_ALREADY_FINAL ->
                LOG.warnf(
                        "post %s target %s is already %s; outcome %s ignored",
                        event.postId(), event.accountId(), decision.target().status, event.status());
        }
    }
}
