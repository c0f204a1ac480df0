package dev.herald.usage.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Ids of the Kafka events already applied, so that a redelivered one is applied once. */
@ApplicationScoped
public class ProcessedEventRepository {

    /**
     * Records the event within the caller's transaction; false when it was recorded before (a redelivery). A
     * concurrent delivery of the same event waits here for the first one's transaction and then sees it.
     */
    public Uni<Boolean> markProcessed(String eventId, String topic) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "insert into processed_events (event_id, topic) values (?1, ?2) on conflict do nothing")
                        .setParameter(1, eventId)
                        .setParameter(2, topic)
                        .executeUpdate())
                .map(inserted -> inserted > 0);
    }
}
