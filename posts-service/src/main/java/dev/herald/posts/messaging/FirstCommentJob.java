package dev.herald.posts.messaging;

import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.posts.config.FirstCommentsConfig;
import dev.herald.posts.repository.FirstCommentStatements;
import dev.herald.posts.repository.FirstCommentStatements.Due;
import dev.herald.posts.service.FirstCommentPosting;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Posts the first comments of live published targets: every {@code herald.first-comments.interval}, and at once when
 * finalization records a live target as published ({@link #nudge}), it claims the due ones ({@code SKIP LOCKED} and a
 * lease, so replicas share the work and a dead replica's claims fall due again: a pending first comment survives a
 * restart) and posts them one after another ({@link FirstCommentPosting}).
 */
@ApplicationScoped
public class FirstCommentJob {
    private static final Logger LOG = Logger.getLogger(FirstCommentJob.class);

    private final FirstCommentStatements statements;
    private final FirstCommentsConfig config;
    private final Clock clock;
    private final RepeatingTask task;
    // One comment's trouble never ends the pass: its claim lapses and it falls due again.
    private final DueWork<Due> comments;

    public FirstCommentJob(
            FirstCommentStatements statements,
            FirstCommentPosting posting,
            FirstCommentsConfig config,
            Clock clock,
            Vertx vertx) {
        this.statements = statements;
        this.comments = DueWork.goingOnAfterFailure(
                one -> posting.post(one).replaceWith(true),
                (one, failure) -> LOG.warnf(
                        "first comment of post %s on account %s not settled yet: %s",
                        one.postId(), one.accountId(), failure.toString()));
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "first comments", config.interval(), this::postDue);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** A live target was just published: its first comment need not wait for the next tick. */
    public void nudge() {
        task.nudge();
    }

    /** One pass; the number of first comments claimed. */
    private Uni<Integer> postDue() {
        Instant now = Timestamps.now(clock);
        return comments.round(statements.claimDue(now, now.plus(config.claimLease()), config.batch()))
                .map(DueWork.Round::claimed);
    }
}
