package dev.herald.common.events;

import com.fasterxml.jackson.annotation.JsonInclude;
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
        String previousProfileId,
        @JsonInclude(JsonInclude.Include.NON_NULL) String reconnectUrl) {
    /** Connected for the first time. */
    public static final String CONNECTED = "account.connected";

    /** Disconnected ({@code DELETE /accounts/{id}}); {@code reconnectUrl} reconnects it. */
    public static final String DISCONNECTED = "account.disconnected";
    /**
     * The platform refused the grant for good or a needed permission was removed: health {@code reauth_required}
     * ({@code account.health().reason()} says what the platform answered); {@code reconnectUrl} reconnects it.
     */
    public static final String REAUTH_REQUIRED = "account.reauth_required";
    /** A {@code reauth_required} or disconnected account authorized again: healthy, same id. */
    public static final String RECONNECTED = "account.reconnected";
    /** Assigned to another profile, or unassigned. */
    public static final String REASSIGNED = "account.reassigned";
}
