package dev.herald.gateway.repository;

import dev.herald.common.persistence.StatementBatcher;
import dev.herald.gateway.repository.AdmissionStatements.CountRequest;
import dev.herald.gateway.repository.AdmissionStatements.Counts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Counts concurrent requests together ({@link StatementBatcher}): a request arriving while no statement is in flight is
 * counted at once; requests arriving while one is in flight go together in the next one. Under load one round trip and
 * one transaction then serve many requests, which is most of the gateway's database work per request. Requests of all
 * workspaces share the statement, so batching also works for many quiet tenants.
 */
@ApplicationScoped
public class AdmissionBatcher {
    static final int MAX_BATCH = 256;

    private final StatementBatcher<CountRequest, Counts> batcher;

    public AdmissionBatcher(AdmissionStatements counters) {
        this.batcher = StatementBatcher.of(MAX_BATCH, counters::admitAll, AdmissionBatcher::oneCountingPerSubject);
    }

    public Uni<Counts> count(CountRequest request) {
        return batcher.submit(request);
    }

    /**
     * A request whose subject is already in the batch under other counters (a new minute, a plan change) waits for
     * the next statement, which {@link AdmissionStatements#admitAll} requires.
     */
    private static Predicate<CountRequest> oneCountingPerSubject() {
        Map<String, CountRequest> subjects = new HashMap<>();
        return next -> {
            CountRequest sameSubject = subjects.putIfAbsent(next.subject(), next);
            return sameSubject == null || sameSubject.sameCounters(next);
        };
    }
}
