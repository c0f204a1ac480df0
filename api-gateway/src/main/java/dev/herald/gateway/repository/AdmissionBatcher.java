package dev.herald.gateway.repository;

import dev.herald.gateway.repository.AdmissionStatements.CountRequest;
import dev.herald.gateway.repository.AdmissionStatements.Counts;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Counts concurrent requests together, the way a database groups commits: a request arriving while no
 * statement is in flight is sent at once (no added latency when the gateway is quiet); requests arriving
 * while one is in flight wait and go together in the next one. Under load one round trip and one
 * transaction then serve many requests, which is most of the gateway's database work per request.
 * Requests of all workspaces share the statement, so batching also works for many quiet tenants.
 */
@ApplicationScoped
public class AdmissionBatcher {
    /**
     * One statement at a time per gateway: while it runs, the next batch fills. More in flight would make
     * batches smaller (more statements, more database work per request) without counting any sooner.
     */
    static final int MAX_STATEMENTS_IN_FLIGHT = 1;

    static final int MAX_BATCH = 256;

    private final AdmissionStatements counters;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private int inFlight;

    public AdmissionBatcher(AdmissionStatements counters) {
        this.counters = counters;
    }

    private record Waiting(CountRequest request, UniEmitter<? super Counts> emitter, Context context) {
        void complete(Counts counts) {
            onOwnContext(() -> emitter.complete(counts));
        }

        void fail(Throwable failure) {
            onOwnContext(() -> emitter.fail(failure));
        }

        // The request continues on the event loop that owns its connection, as it would after its own query.
        private void onOwnContext(Runnable action) {
            if (context == null || context == Vertx.currentContext()) {
                action.run();
            } else {
                context.runOnContext(ignored -> action.run());
            }
        }
    }

    public Uni<Counts> count(CountRequest request) {
        return Uni.createFrom().emitter(emitter -> {
            synchronized (this) {
                waiting.add(new Waiting(request, emitter, Vertx.currentContext()));
            }
            sendNextBatch();
        });
    }

    private void sendNextBatch() {
        List<Waiting> batch;
        synchronized (this) {
            if (inFlight >= MAX_STATEMENTS_IN_FLIGHT || waiting.isEmpty()) {
                return;
            }
            inFlight++;
            batch = takeBatch();
        }
        List<CountRequest> requests = new ArrayList<>(batch.size());
        for (Waiting entry : batch) {
            requests.add(entry.request());
        }
        Uni.createFrom()
                .deferred(() -> counters.admitAll(requests))
                .subscribe()
                .with(
                        counts -> {
                            finished();
                            for (int i = 0; i < batch.size(); i++) {
                                batch.get(i).complete(counts.get(i));
                            }
                        },
                        failure -> {
                            finished();
                            batch.forEach(entry -> entry.fail(failure));
                        });
    }

    /**
     * Up to {@link #MAX_BATCH} waiting requests, in arrival order. A request whose subject is already in the
     * batch under other counters (a new minute, a plan change) waits for the next statement.
     */
    private List<Waiting> takeBatch() {
        List<Waiting> batch = new ArrayList<>(Math.min(waiting.size(), MAX_BATCH));
        Map<String, CountRequest> subjects = new HashMap<>();
        for (Iterator<Waiting> it = waiting.iterator(); it.hasNext() && batch.size() < MAX_BATCH; ) {
            Waiting next = it.next();
            CountRequest sameSubject = subjects.putIfAbsent(next.request().subject(), next.request());
            if (sameSubject == null || sameSubject.sameCounters(next.request())) {
                batch.add(next);
                it.remove();
            }
        }
        return batch;
    }

    private void finished() {
        synchronized (this) {
            inFlight--;
        }
        sendNextBatch();
    }
}
