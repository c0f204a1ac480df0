package dev.herald.usage.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.Topics;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.events.UsageEvent.MeterState;
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

    /** A change that carries no meter state ({@link UsageEvent#CONSUMED}, {@link UsageEvent#RELEASED}). */
    public Uni<Void> record(String type, String workspaceId, Mode mode, UsageReservation reservation) {
        return record(type, workspaceId, mode, reservation, null);
    }

    /** {@code meterState}: the reservation's meter after a {@link UsageEvent#RESERVED} change, else null. */
    public Uni<Void> record(
            String type, String workspaceId, Mode mode, UsageReservation reservation, MeterState meterState) {
        OutboxWriter.Entry entry = entry(type, workspaceId, mode, reservation, meterState);
        return Panache.getSession().flatMap(session -> writer.appendAll(session, List.of(entry)));
    }

    /** The outbox row of a change that carries no meter state, for a statement that writes it itself. */
    public OutboxWriter.Entry entry(String type, String workspaceId, Mode mode, UsageReservation reservation) {
        return entry(type, workspaceId, mode, reservation, null);
    }

    /**
     * The outbox row of a reservation's change, for a statement that writes it itself ({@link OutboxWriter#bind});
     * such a statement may fill in {@code meter_state}, known only once it has run.
     */
    public OutboxWriter.Entry entry(
            String type, String workspaceId, Mode mode, UsageReservation reservation, MeterState meterState) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        UsageEvent event =
                new UsageEvent(eventId, type, Timestamps.now(clock), workspaceId, mode, reservation, meterState);
        return new OutboxWriter.Entry(eventId, Topics.USAGE_RESERVED, UsageEvent.key(workspaceId, mode), event);
    }
}
