package dev.herald.common.wire;

import java.time.Instant;
import java.util.List;

/**
 * Whether Herald can publish to an account now, as {@code GET /accounts} shows it. {@code status}:
 * <ul>
 *   <li>{@link #HEALTHY}: the grant works (or was last seen working);
 *   <li>{@link #EXPIRING}: the grant cannot be renewed past {@code tokenExpiresAt}, which is within 7 days;
 *   <li>{@link #REAUTH_REQUIRED}: the platform refused the grant for good, or a permission Herald needs was removed
 *       ({@code reason} keeps the platform's own answer); the account keeps its slot until it is reconnected;
 *   <li>{@link #DISCONNECTED}: the account was disconnected ({@code DELETE /accounts/{id}}).
 * </ul>
 * {@code tokenExpiresAt} is when Herald's access ends if nothing renews it (the refresh token's end for a renewable
 * grant, else the access token's; null when the platform gives no end); {@code checkedAt} is the last time a check
 * or a use of the grant got a definitive answer from the platform (null for sandbox accounts never checked).
 */
public record AccountHealth(String status, String reason, Instant tokenExpiresAt, Instant checkedAt) {
    public static final String HEALTHY = "healthy";
    public static final String EXPIRING = "expiring";
    public static final String REAUTH_REQUIRED = "reauth_required";
    public static final String DISCONNECTED = "disconnected";

    /** Every status, in the order the API documents them (what {@code health=} accepts). */
    public static final List<String> STATUSES = List.of(HEALTHY, EXPIRING, REAUTH_REQUIRED, DISCONNECTED);

    /** Whether no post can be published to the account until it is reconnected. */
    public boolean broken() {
        return REAUTH_REQUIRED.equals(status) || DISCONNECTED.equals(status);
    }
}
