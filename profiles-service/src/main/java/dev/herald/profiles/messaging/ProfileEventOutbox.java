package dev.herald.profiles.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Profile;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/** Records a profile event in the outbox, inside the transaction that made the change. */
@ApplicationScoped
public class ProfileEventOutbox {
    private final OutboxWriter writer;
    private final Clock clock;

    public ProfileEventOutbox(ObjectMapper mapper, Clock clock) {
        this.writer = new OutboxWriter(mapper);
        this.clock = clock;
    }

    public Uni<Void> record(String type, String workspaceId, Mode mode, Profile profile) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        ProfileEvent event = new ProfileEvent(eventId, type, Timestamps.now(clock), workspaceId, mode, profile);
        return Panache.getSession()
                .flatMap(session -> writer.append(session, eventId, Topics.PROFILE_EVENTS, profile.id(), event));
    }
}
