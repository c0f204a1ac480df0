package dev.herald.posts.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.messaging.EventRetry;
import dev.herald.common.tracing.TraceParents;
import dev.herald.posts.service.PostFinalization;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code target.completed}: delivery outcomes. Each event is applied once (its id recorded in the same
 * transaction as the effect), retried until it is ({@link EventRetry}); the offset is committed after that. The record's {@code traceparent} header (the
 * delivery's trace) goes on with the {@code post.finalized} it may cause.
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
    public Uni<Void> consume(String payload, IncomingKafkaRecordMetadata<String, String> record) {
        TargetCompletedEvent event;
        try {
            event = mapper.readValue(payload, TargetCompletedEvent.class);
        } catch (JsonProcessingException e) {
            // A message nobody can read would otherwise stop the channel for good; it is logged and skipped.
            LOG.errorf("skipping an unreadable target.completed event: %s", e.getOriginalMessage());
            return Uni.createFrom().voidItem();
        }
        if (event.eventId() == null || event.postId() == null || event.accountId() == null || event.mode() == null) {
            LOG.errorf("skipping a target.completed event without event_id, post_id, account_id or mode");
            return Uni.createFrom().voidItem();
        }
        String traceParent = TraceParents.header(record.getHeaders());
        return EventRetry.untilApplied(
                "target.completed " + event.eventId(), () -> finalization.apply(event, traceParent));
    }
}
