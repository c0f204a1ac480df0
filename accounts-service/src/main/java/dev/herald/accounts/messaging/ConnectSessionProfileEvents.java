package dev.herald.accounts.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.messaging.EventRetry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code profile.events}: a deleted profile's open connect sessions are revoked. Each event is applied once
 * (its id recorded in the same transaction as the revocation); the offset is committed after that.
 */
@ApplicationScoped
public class ConnectSessionProfileEvents {
    private static final Logger LOG = Logger.getLogger(ConnectSessionProfileEvents.class);

    private final ConnectSessionService sessions;
    private final ObjectMapper mapper;

    public ConnectSessionProfileEvents(ConnectSessionService sessions, ObjectMapper mapper) {
        this.sessions = sessions;
        this.mapper = mapper;
    }

    @Incoming("profile-events")
    public Uni<Void> consume(String payload) {
        ProfileEvent event;
        try {
            event = mapper.readValue(payload, ProfileEvent.class);
        } catch (JsonProcessingException e) {
            // A message nobody can read would otherwise stop the channel for good; it is logged and skipped.
            LOG.errorf("skipping an unreadable profile event: %s", e.getOriginalMessage());
            return Uni.createFrom().voidItem();
        }
        if (event.eventId() == null || event.type() == null) {
            LOG.errorf("skipping a profile event without event_id or type");
            return Uni.createFrom().voidItem();
        }
        return EventRetry.untilApplied("profile event " + event.eventId(), () -> sessions.apply(event));
    }
}
