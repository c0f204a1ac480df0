package dev.herald.posts.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.common.tracing.TraceParents;
import dev.herald.posts.service.PostFinalization;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code target.completed}: delivery outcomes, a poll's records at a time ({@code batch=true}), whose writes share
 * reads and statements ({@link PostFinalization#applyAll}). Each event is applied once (its id recorded in the same
 * transaction as the effect), retried until it is ({@link EventRetry}); the offsets are committed after that. A
 * record's {@code traceparent} header (the delivery's trace) goes on with the {@code post.finalized} it may cause.
 */
@ApplicationScoped
public class TargetCompletedConsumer {
    private static final Logger LOG = Logger.getLogger(TargetCompletedConsumer.class);

    private final PostFinalization finalization;
    private final ObjectMapper mapper;

    public TargetCompletedConsumer(PostFinalization finalization, ObjectMapper mapper) {
        this.finalization = finalization;
        this.mapper = mapper;
    }

    @Incoming("target-completed")
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        List<PostFinalization.Received> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            TargetCompletedEvent event = read(record.value());
            if (event != null) {
                batch.add(new PostFinalization.Received(event, TraceParents.header(record.headers())));
            }
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return EventRetry.untilApplied(
                batch.size() + " target.completed events from "
                        + batch.get(0).event().eventId(),
                () -> finalization.applyAll(batch));
    }

    /**
     * The event, or null when the record cannot be one (logged and skipped): a message nobody can read would
     * otherwise stop the channel for good.
     */
    private TargetCompletedEvent read(String payload) {
        TargetCompletedEvent event;
        try {
            event = mapper.readValue(payload, TargetCompletedEvent.class);
        } catch (JsonProcessingException e) {
            LOG.errorf("skipping an unreadable target.completed event: %s", e.getOriginalMessage());
            return null;
        }
        if (event.eventId() == null || event.postId() == null || event.accountId() == null || event.mode() == null) {
            LOG.errorf("skipping a target.completed event without event_id, post_id, account_id or mode");
            return null;
        }
        return event;
    }
}
