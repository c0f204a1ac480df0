package dev.herald.posts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The ids of consumed events, recorded in the transaction of their effect so that each is applied once. */
@ApplicationScoped
public class ProcessedEventRepository {

    /** Records the event; false when it was already recorded (a redelivery, to be skipped). */
    public Uni<Boolean> markProcessed(String eventId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "insert into processed_events (event_id) values (?1) on conflict do nothing")
                        .setParameter(1, eventId)
                        .executeUpdate()
                        .map(inserted -> inserted == 1));
    }
}
