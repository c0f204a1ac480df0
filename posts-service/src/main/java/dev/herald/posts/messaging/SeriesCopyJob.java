package dev.herald.posts.messaging;

import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.posts.config.SeriesConfig;
import dev.herald.posts.repository.SeriesStatements;
import dev.herald.posts.repository.SeriesStatements.StoredSeries;
import dev.herald.posts.service.SeriesCopying;
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
 * Creates the copies of recurring posts: every {@code herald.series.interval} it claims the series whose next copy is
 * due ({@code SKIP LOCKED} and a lease, so replicas share the work and a dead replica's claim falls due again) and
 * creates each one's copy ({@link SeriesCopying}). Calls to the other services go as the series' workspace and mode.
 */
@ApplicationScoped
public class SeriesCopyJob {
    private static final Logger LOG = Logger.getLogger(SeriesCopyJob.class);

    private final SeriesStatements statements;
    private final SeriesConfig config;
    private final Clock clock;
    private final RepeatingTask task;
    // One series' trouble never ends the pass: its claim lapses and it falls due again.
    private final DueWork<StoredSeries> copies;

    public SeriesCopyJob(
            SeriesStatements statements, SeriesCopying copying, SeriesConfig config, Clock clock, Vertx vertx) {
        this.statements = statements;
        this.copies = DueWork.goingOnAfterFailure(
                series -> copying.createNext(series).replaceWith(true),
                (series, failure) -> LOG.warnf(
                        "series %s: copy %d not created yet: %s", series.id(), series.nextIndex(), failure.toString()));
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "series copies", config.interval(), this::createDue);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** One pass; the number of series claimed. */
    Uni<Integer> createDue() {
        Instant now = Timestamps.now(clock);
        return copies.round(statements.claimDue(now, now.plus(config.claimLease()), config.batch()))
                .map(DueWork.Round::claimed);
    }
}
