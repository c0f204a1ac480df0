package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Profile;
import java.time.Instant;

/**
 * A change to a profile, on {@link Topics#PROFILE_EVENTS} keyed by profile id. {@code profile} is the
 * profile after the change (as it was, for {@code profile.deleted}); consumers deduplicate by
 * {@code event_id}.
 */
public record ProfileEvent(
        String eventId, String type, Instant occurredAt, String workspaceId, Mode mode, Profile profile) {
    public static final String CREATED = "profile.created";
    public static final String UPDATED = "profile.updated";
    public static final String DELETED = "profile.deleted";
}
