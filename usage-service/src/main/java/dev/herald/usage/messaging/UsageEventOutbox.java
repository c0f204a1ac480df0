package dev.herald.usage.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.Topics;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.UsageReservation;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;

/** Records a reservation's change in the outbox, inside the transaction that made it. */
@ApplicationScoped
public class UsageEventOutbox {
    private final OutboxWriter writer;
    private final Clock clock;

    public UsageEventOutbox(ObjectMapper mapper, Clock clock) {
        this.writer = new OutboxWriter(mapper);
        this.clock = clock;
    }

    public Uni<Void> record(String type, String workspaceId, Mode mode, UsageReservation reservation) {
        OutboxWriter.Entry entry = entry(type, workspaceId, mode, reservation);
        return Panache.getSession().flatMap(session -> writer.appendAll(session, List.of(entry)));
    }

    /** The outbox row of a reservation's change, for a statement that writes it itself ({@link OutboxWriter#bind}). */
    public OutboxWriter.Entry entry(String type, String workspaceId, Mode mode, UsageReservation reservation) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        UsageEvent event = new UsageEvent(eventId, type, Timestamps.now(clock), workspaceId, mode, reservation);
        return new OutboxWriter.Entry(eventId, Topics.USAGE_RESERVED, UsageEvent.key(workspaceId, mode), event);
    }
}
