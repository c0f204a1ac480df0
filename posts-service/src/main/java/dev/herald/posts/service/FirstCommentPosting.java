package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget.FirstCommentStatus;
import dev.herald.posts.config.FirstCommentsConfig;
import dev.herald.posts.messaging.PostEventOutbox;
import dev.herald.posts.model.CommentEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.FirstCommentStatements;
import dev.herald.posts.repository.FirstCommentStatements.Due;
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostTargetRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Posts one claimed first comment ({@code FirstCommentJob}) and records what became of it. Live: one comment request
 * through {@link LiveComments} (reserved, then consumed or released, as a reply is), as the account, on its published
 * post; a failure is judged by {@link FirstCommentRetry} (postponed, or {@code failed}). Test mode: the sandbox's
 * answer at once ({@link SandboxComments#firstComment}; finalization settles test targets itself, so this is for a
 * test target left pending by an older version).
 *
 * <p>Settling a first comment locks its post, as finalization does, and moves the post's {@code updated_at} (the
 * one-statement outcome path relies on it). When it was the last pending first comment of a post already final, the
 * post's {@code post.finalized} goes out in the same transaction: the final event waits for first comments.
 *
 * <p>A platform call that succeeded is settled right after; should that write fail, the claim's lease runs out and the
 * comment is tried again, so in that rare case the platform may show it twice (at least once, never lost).
 */
@ApplicationScoped
public class FirstCommentPosting {
    private static final Logger LOG = Logger.getLogger(FirstCommentPosting.class);

    private final LiveComments live;
    private final AccountsClient accounts;
    private final FirstCommentStatements statements;
    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final PostEventOutbox events;
    private final PostDispatcher dispatcher;
    private final PostViews views;
    private final FirstCommentsConfig config;
    private final Clock clock;

    public FirstCommentPosting(
            LiveComments live,
            AccountsClient accounts,
            FirstCommentStatements statements,
            PostRepository posts,
            PostTargetRepository targets,
            PostEventOutbox events,
            PostDispatcher dispatcher,
            PostViews views,
            FirstCommentsConfig config,
            Clock clock) {
        this.live = live;
        this.accounts = accounts;
        this.statements = statements;
        this.posts = posts;
        this.targets = targets;
        this.events = events;
        this.dispatcher = dispatcher;
        this.views = views;
        this.config = config;
        this.clock = clock;
    }

    /** Posts the claimed first comment, then settles or postpones it. */
    public Uni<Void> post(Due due) {
        Platform platform = Platform.fromWire(due.platform()).orElseThrow();
        String text = views.firstCommentText(due.postFirstComment(), due.platformOptions(), platform);
        if (text == null) {
            return settle(due, new FirstCommentStatus(FirstCommentStatus.NOT_SUPPORTED, null, null));
        }
        if (due.mode() == Mode.TEST) {
            return settle(due, SandboxComments.firstComment(due.postId(), due.accountId(), text));
        }
        Context context = Vertx.currentContext();
        Uni<FirstCommentRetry> outcome = Uni.createFrom()
                .deferred(() -> callPlatform(due, text))
                .map(created -> new FirstCommentRetry(null, FirstComments.published(created.providerCommentId)))
                .onFailure()
                .recoverWithItem(failure -> afterFailure(due, failure));
        if (context != null) {
            // A refusal from a client's fault tolerance (a usage refusal, an open circuit, a timeout) can end on
            // another
            // thread or context, where Hibernate Reactive refuses to work: the outcome is settled back on the job's.
            outcome = outcome.emitOn(task -> context.runOnContext(ignored -> task.run()));
        }
        return outcome.flatMap(next -> next.retries()
                ? statements.postpone(due.postId(), due.accountId(), next.retryAt())
                : settle(due, next.settled()));
    }

    private Uni<CommentEntity> callPlatform(Due due, String text) {
        return accounts.lookup(due.workspaceId(), Mode.LIVE, List.of(due.accountId()))
                .flatMap(found -> {
                    AccountForPosting account = found.get(due.accountId());
                    if (account == null
                            || !Account.CONNECTED.equals(account.account().status())) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.CONFLICT,
                                        "The account was disconnected before its first comment could be posted;"
                                                + " reconnect it and comment on the post yourself.",
                                        Map.of("account_id", due.accountId())));
                    }
                    return live.comment(due.workspaceId(), due.postId(), due.providerPostId(), account.account(), text);
                });
    }

    private FirstCommentRetry afterFailure(Due due, Throwable failure) {
        Instant now = Timestamps.now(clock);
        FirstCommentRetry next = FirstCommentRetry.after(
                failure,
                due.attempts(),
                now,
                due.publishedAt().plus(config.deadline()),
                config.firstRetryWait(),
                config.maxRetryWait());
        if (next.retries()) {
            LOG.infof(
                    "first comment of post %s on account %s: try %d failed (%s); next at %s",
                    due.postId(), due.accountId(), due.attempts(), failure.toString(), next.retryAt());
            return next;
        }
        LOG.infof(
                "first comment of post %s on account %s failed: %s",
                due.postId(), due.accountId(), next.settled().error().message());
        return next;
    }

    /**
     * Writes the first comment's outcome under the post's lock; when no published target's first comment is pending any
     * more and the post is final, its {@code post.finalized}. A first comment no longer pending (settled meanwhile)
     * is left as it is.
     */
    Uni<Void> settle(Due due, FirstCommentStatus outcome) {
        return Panache.withTransaction(() -> posts.findForUpdate(due.postId())
                        .flatMap(post -> targets.forPost(due.postId()).flatMap(rows -> {
                            PostTargetEntity target = rows.stream()
                                    .filter(row -> row.accountId.equals(due.accountId()))
                                    .findFirst()
                                    .orElse(null);
                            if (post == null
                                    || target == null
                                    || !FirstComments.isPending(views.firstComment(target))) {
                                return Uni.createFrom().item(false);
                            }
                            Instant now = Timestamps.now(clock);
                            target.firstComment = views.json(outcome);
                            target.firstCommentDueAt = null;
                            target.updatedAt = now;
                            post.updatedAt = now;
                            if (post.finalizedAt == null) {
                                return Uni.createFrom().item(false);
                            }
                            Post wire = views.toWire(post, rows);
                            if (FirstComments.awaited(wire.targets())) {
                                return Uni.createFrom().item(false);
                            }
                            return events.finalized(post.workspaceId, due.mode(), wire, post.traceParent)
                                    .replaceWith(true);
                        })))
                .invoke(written -> {
                    if (written) {
                        dispatcher.eventsWritten();
                    }
                })
                .replaceWithVoid();
    }
}
