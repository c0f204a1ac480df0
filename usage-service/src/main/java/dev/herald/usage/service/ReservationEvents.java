package dev.herald.usage.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.events.UsageEvent.MeterState;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.messaging.UsageEventOutbox;
import dev.herald.usage.model.ReservationEntity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The {@code usage.*} events of changed reservations, recorded in the outbox of the transaction that changed them. */
@ApplicationScoped
public class ReservationEvents {

    private final UsageEventOutbox events;

    public ReservationEvents(UsageEventOutbox events) {
        this.events = events;
    }

    Uni<UsageReservation> emit(String type, ReservationEntity reservation) {
        return emit(type, reservation, null);
    }

    /** {@code meterState}: the reservation's meter after a {@link UsageEvent#RESERVED} change, else null. */
    Uni<UsageReservation> emit(String type, ReservationEntity reservation, MeterState meterState) {
        UsageReservation wire = ReservationWire.of(reservation);
        return events.record(
                        type,
                        reservation.workspaceId,
                        Mode.fromWire(reservation.mode).orElseThrow(),
                        wire,
                        meterState)
                .replaceWith(wire);
    }

    /** One event per reservation, recorded one after another (a session runs one statement at a time). */
    Uni<List<UsageReservation>> emitEach(String type, List<ReservationEntity> changed) {
        return emitEach(type, changed, reservation -> null);
    }

    /** One event per reservation, each with its meter's state ({@link #emit(String, ReservationEntity, MeterState)}). */
    Uni<List<UsageReservation>> emitEach(
            String type, List<ReservationEntity> changed, Function<ReservationEntity, MeterState> meterStates) {
        List<UsageReservation> wires = new ArrayList<>();
        Uni<Void> recording = Uni.createFrom().voidItem();
        for (ReservationEntity reservation : changed) {
            recording = recording.flatMap(previous -> emit(type, reservation, meterStates.apply(reservation))
                    .invoke(wires::add)
                    .replaceWithVoid());
        }
        return recording.replaceWith(wires);
    }
}
