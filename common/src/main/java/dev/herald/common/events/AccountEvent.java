package dev.herald.common.events;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import java.time.Instant;

/**
 * A change to an account, on {@link Topics#ACCOUNT_EVENTS} keyed by account id. {@code account} is the
 * account after the change; {@code previousProfileId} is the profile it was assigned to before (equal to
 * the current one unless the change moved it). Consumers deduplicate by {@code event_id}.
 */
public record AccountEvent(
        String eventId,
        String type,
        Instant occurredAt,
        String workspaceId,
        Mode mode,
        Account account,
        String previousProfileId) {
    /** Connected for the first time, or again after a disconnection (a new connection). */
    public static final String CONNECTED = "account.connected";

    public static final String DISCONNECTED = "account.disconnected";
    /** Assigned to another profile, or unassigned. */
    public static final String REASSIGNED = "account.reassigned";
}
