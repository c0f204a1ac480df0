package dev.herald.delivery.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/** Event ids the worker has applied, so that a redelivered event changes nothing. */
@ApplicationScoped
public class ProcessedEventRepository {

    /** Records the event within the caller's transaction; false when it was recorded before (a redelivery). */
    public Uni<Boolean> markProcessed(SqlConnection connection, String eventId, Instant now) {
        return connection.preparedQuery("insert into processed_events (event_id, processed_at) values ($1, $2) on conflict do nothing")
                .execute(SqlParameters.of(eventId, now))
                .map(rows -> rows.rowCount() > 0);
    }
}
