package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code herald_usage_reservations_total{meter,outcome}}: every reservation asked for, single or in a batch (each item
 * counts once, with the batch's outcome: batches are all or nothing). Outcomes: {@code reserved}, {@code replayed}
 * (the id existed; nothing new was reserved), {@code limit_exceeded}, {@code capacity_exceeded}, {@code conflict},
 * {@code error}. Labels are the meter and the outcome only, never a workspace: the series stay a few dozen.
 */
@ApplicationScoped
public class ReservationMetrics {
    private final MeterRegistry registry;

    public ReservationMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public Uni<ReservationOutcome> counted(ReservationRequest request, Uni<ReservationOutcome> reservation) {
        return counted(List.of(request), reservation, ReservationOutcome::created);
    }

    public <T> Uni<T> counted(List<ReservationRequest> requests, Uni<T> reservation, Predicate<T> created) {
        return reservation
                .invoke(outcome -> count(requests, created.test(outcome) ? "reserved" : "replayed"))
                .onFailure()
                .invoke(failure -> count(requests, outcomeOf(failure)));
    }

    private void count(List<ReservationRequest> requests, String outcome) {
        for (ReservationRequest request : requests) {
            registry.counter(
                            "herald.usage.reservations",
                            "meter",
                            request.meter().wireName(),
                            "outcome",
                            outcome)
                    .increment();
        }
    }

    static String outcomeOf(Throwable failure) {
        if (!(failure instanceof ApiException api)) {
            return "error";
        }
        return switch (api.code()) {
            case USAGE_LIMIT_EXCEEDED -> "limit_exceeded";
            case ACCOUNT_CAPACITY_EXCEEDED -> "capacity_exceeded";
            case CONFLICT -> "conflict";
            default -> "error";
        };
    }
}
