package dev.herald.posts.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.posts.service.PostFinalization;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code target.completed}: delivery outcomes. Each event is applied once (its id recorded in the same
 * transaction as the effect); the offset is committed after that.
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
    public Uni<Void> consume(String payload) {
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
        return finalization.apply(event);
    }
}
