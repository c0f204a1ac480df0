package dev.herald.posts.service;

import dev.herald.common.persistence.BatchedDelete;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.repository.IdempotencyKeyStatements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;

/**
 * Deletes Idempotency-Keys past their {@code expires_at} (24 h after the answer was stored, or a dead request's claim
 * past its timeout) every {@code herald.posts.idempotency-purge-interval}. An expired key already answers nothing (a
 * reuse claims it afresh); without this the table would keep a row per accepted post forever. Batches of
 * {@value #BATCH_SIZE}, each its own short statement; replicas running it at once only delete the same rows twice.
 */
@ApplicationScoped
public class IdempotencyKeyRetention {
    static final int BATCH_SIZE = 1000;

    private final IdempotencyKeyStatements keys;
    private final Clock clock;
    private final RepeatingTask task;

    public IdempotencyKeyRetention(IdempotencyKeyStatements keys, PostsConfig config, Clock clock, Vertx vertx) {
        this.keys = keys;
        this.clock = clock;
        this.task =
                new RepeatingTask(vertx, "idempotency key retention", config.idempotencyPurgeInterval(), this::purge);
    }

    /** Deletes every expired key; the number deleted. */
    public Uni<Long> purge() {
        return BatchedDelete.untilShort(() -> keys.purgeExpired(clock.instant(), BATCH_SIZE), BATCH_SIZE);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }
}
