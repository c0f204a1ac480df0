package dev.herald.gateway.service;

import dev.herald.gateway.repository.RequestLogStatements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jboss.logging.Logger;

/**
 * Writes request logs in batches, off the request path: a request only appends to a queue. The queue is
 * flushed every 250 ms and once more at shutdown, so a clean stop loses nothing.
 */
@ApplicationScoped
public class RequestLogWriter {
    private static final Logger LOG = Logger.getLogger(RequestLogWriter.class);
    private static final int BATCH = 500;
    private static final Duration RETENTION = Duration.ofDays(30);

    private final RequestLogStatements logs;
    private final Clock clock;
    private final ConcurrentLinkedQueue<RequestLogStatements.Entry> pending = new ConcurrentLinkedQueue<>();

    public RequestLogWriter(RequestLogStatements logs, Clock clock) {
        this.logs = logs;
        this.clock = clock;
    }

    public void append(RequestLogStatements.Entry entry) {
        pending.add(entry);
    }

    @Scheduled(every = "0.25s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> flush() {
        List<RequestLogStatements.Entry> batch = new ArrayList<>();
        for (RequestLogStatements.Entry entry; batch.size() < BATCH && (entry = pending.poll()) != null; ) {
            batch.add(entry);
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return logs.insertAll(batch)
                .onFailure()
                .invoke(failure -> {
                    // Put the batch back for the next tick: a database hiccup delays logs, it does not drop them.
                    pending.addAll(batch);
                    LOG.warnf("request logs not written yet (%d pending): %s", pending.size(), failure.toString());
                })
                .onFailure()
                .recoverWithNull()
                .flatMap(written -> pending.isEmpty() ? Uni.createFrom().voidItem() : flush());
    }

    void drainOnShutdown(@Observes ShutdownEvent event) {
        try {
            flush().await().atMost(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            LOG.warnf("%d request logs could not be written at shutdown: %s", pending.size(), e.toString());
        }
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> dropExpired() {
        return logs.deleteOlderThan(clock.instant().minus(RETENTION)).replaceWithVoid();
    }
}
