package dev.herald.posts.messaging;

import dev.herald.common.client.UsageClient;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
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
 * Gives back what a {@code POST /posts} took when its process died between reserving publications and
 * committing the post (or when its own give-back failed): without it, each such request would keep a publication
 * of the tenant's allowance reserved for good. An acceptance is abandoned once it is older than the
 * Idempotency-Key claim timeout: by then every call the request made has timed out, and a retry may take the
 * key over anyway. Releasing is idempotent, so two replicas, or a run repeated after a crash, do no harm.
 */
@ApplicationScoped
public class AbandonedAcceptanceJob {
    private static final Logger LOG = Logger.getLogger(AbandonedAcceptanceJob.class);
    private static final int BATCH = 100;

    private final UnfinishedAcceptanceStatements acceptances;
    private final UsageClient usage;
    private final PostsConfig config;
    private final Clock clock;
    private final RepeatingTask task;
    private final DueWork<UnfinishedAcceptance> releases = DueWork.goingOnAfterFailure(
            this::release,
            (acceptance, failure) -> LOG.warnf(
                    "post %s: reservations of an abandoned acceptance not given back yet: %s",
                    acceptance.postId(), failure.toString()));

    public AbandonedAcceptanceJob(
            UnfinishedAcceptanceStatements acceptances,
            UsageClient usage,
            PostsConfig config,
            Clock clock,
            Vertx vertx) {
        this.acceptances = acceptances;
        this.usage = usage;
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(
                vertx,
                "abandoned acceptance release",
                config.abandonedAcceptanceInterval(),
                () -> giveBackAbandoned(Timestamps.now(clock).minus(config.idempotencyClaimTimeout())));
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** Abandons acceptances started before {@code cutoff} and gives their reservations back; the number finished. */
    public Uni<Integer> giveBackAbandoned(Instant cutoff) {
        return releases.round(acceptances.abandonStale(cutoff, BATCH)).map(DueWork.Round::handled);
    }

    private Uni<Boolean> release(UnfinishedAcceptance acceptance) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String reservationId : acceptance.reservationIds()) {
            chain = chain.chain(() -> usage.release(acceptance.workspaceId(), acceptance.mode(), reservationId));
        }
        return chain.chain(() -> acceptances.forget(acceptance.postId()))
                .invoke(() -> LOG.infof(
                        "post %s was never accepted (its request ended without an answer): "
                                + "%d reservations given back",
                        acceptance.postId(), acceptance.reservationIds().size()))
                .replaceWith(true);
    }
}
