package dev.herald.webhooks.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.events.UsageEvent.MeterState;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.UsageReservation;
import dev.herald.common.wire.UsageThreshold;
import dev.herald.webhooks.repository.EventStatements.IncomingEvent;
import dev.herald.webhooks.repository.UsageThresholdStatements;
import dev.herald.webhooks.repository.UsageThresholdStatements.Reached;
import dev.herald.webhooks.service.EventBodies;
import dev.herald.webhooks.service.UsageThresholds;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code usage.reserved} (consumer group {@code webhooks-service-usage}): a reservation that takes its meter to 80 % or
 * 100 % of the period's allowance ({@link UsageThresholds}) makes a {@code usage.threshold_reached} webhook event,
 * once per workspace, mode, meter, period and threshold ({@link UsageThresholdStatements}). Only
 * {@code usage.reserved} events carry the meter: releases only lower it, and a consumption counts in its
 * reservation's period unless the post completed in the next one, where the next reservation tells. Most events
 * reach nothing and cost nothing but reading; a batch's thresholds are stored in one transaction, retried until
 * applied, like {@link PostFinalizedConsumer}'s events.
 */
@ApplicationScoped
public class UsageReservedConsumer {
    private static final Logger LOG = Logger.getLogger(UsageReservedConsumer.class);
    private static final int MAX_ID_LENGTH = 200;

    private final UsageThresholdStatements thresholds;
    private final EventBodies bodies;
    private final EventIntake intake;
    private final ObjectMapper mapper;
    private final ObjectReader reader;

    public UsageReservedConsumer(
            UsageThresholdStatements thresholds, EventBodies bodies, EventIntake intake, ObjectMapper mapper) {
        this.thresholds = thresholds;
        this.bodies = bodies;
        this.intake = intake;
        this.mapper = mapper;
        // Tolerant of fields a newer usage-service adds.
        this.reader = mapper.readerFor(UsageEvent.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Incoming("usage-reserved")
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        // The first record of the batch to reach a threshold makes its event; the others would make the same one.
        Map<String, Reached> batch = new LinkedHashMap<>();
        for (ConsumerRecord<String, String> record : records) {
            read(record.value(), TraceParents.header(record.headers()))
                    .forEach(reached -> batch.putIfAbsent(reached.event().eventId(), reached));
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Reached> reached = List.copyOf(batch.values());
        return intake.store(
                reached.size() + " usage thresholds", (now, leases) -> thresholds.intake(reached, now, leases));
    }

    /** The thresholds the event's meter is at or past, as webhook events; empty (logged if unusable) for none. */
    List<Reached> read(String payload, String traceParent) {
        UsageEvent event;
        try {
            event = payload == null ? null : reader.readValue(payload);
        } catch (IOException e) {
            LOG.errorf("skipping an unreadable usage event: %s", e.getMessage());
            return List.of();
        }
        if (event == null || !UsageEvent.RESERVED.equals(event.type()) || event.meterState() == null) {
            return List.of();
        }
        UsageReservation reservation = event.reservation();
        if (event.eventId() == null
                || event.eventId().length() > MAX_ID_LENGTH
                || event.workspaceId() == null
                || event.workspaceId().isBlank()
                || event.workspaceId().length() > MAX_ID_LENGTH
                || event.mode() == null
                || event.occurredAt() == null
                || reservation == null
                || reservation.meter() == null
                || reservation.period() == null) {
            LOG.errorf("skipping usage event %s: no usable workspace, mode, time or reservation", event.eventId());
            return List.of();
        }
        MeterState meter = event.meterState();
        List<Reached> reached = new ArrayList<>(2);
        for (int threshold : UsageThresholds.reached(meter)) {
            UsageThreshold data = new UsageThreshold(
                    reservation.meter(),
                    threshold,
                    meter.used(),
                    meter.reserved(),
                    meter.limit(),
                    reservation.period());
            // One id per workspace, mode, meter, period and threshold, whichever reservation reached it.
            String id = EventBodies.eventIdFor(String.join(
                    "\n",
                    UsageThreshold.EVENT,
                    event.workspaceId(),
                    event.mode().wireName(),
                    reservation.meter(),
                    reservation.period().start().toString(),
                    Integer.toString(threshold)));
            IncomingEvent incoming = new IncomingEvent(
                    event.eventId() + "#" + threshold,
                    id,
                    event.workspaceId(),
                    event.mode(),
                    UsageThreshold.EVENT,
                    bodies.body(id, UsageThreshold.EVENT, event.occurredAt(), event.mode(), mapper.valueToTree(data)),
                    event.occurredAt(),
                    traceParent);
            reached.add(new Reached(event.workspaceId(), data, incoming));
        }
        return reached;
    }
}
