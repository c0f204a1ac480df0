package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.auth.Mode;
import java.time.Instant;

/**
 * A social account as the API shows it. {@code status} is {@link #CONNECTED} or {@link #DISCONNECTED};
 * {@code health} says whether Herald can publish to it now ({@link AccountHealth}); {@code connectedAt} is the
 * start of the current (or last) connection. {@code analyticsConsent} is present
 * only on YouTube accounts (spec: the analytics-consent receipt tied to the authorization revision).
 */
public record Account(
        String id,
        Platform platform,
        String profileId,
        String name,
        String username,
        String status,
        AccountHealth health,
        Mode mode,
        Instant connectedAt,
        Instant disconnectedAt,
        Instant createdAt,
        Instant updatedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) AnalyticsConsent analyticsConsent) {
    public static final String CONNECTED = "connected";
    public static final String DISCONNECTED = "disconnected";

    /**
     * A YouTube account's consent state for its current authorization: {@code status} {@code required} until
     * the owner accepts the policy, then {@code accepted} with the server's timestamp. A new authorization
     * (reconnection) starts at {@code required} again with the next {@code authorizationRevision}.
     */
    public record AnalyticsConsent(
            String status, long authorizationRevision, String policyVersion, Instant acceptedAt) {
        public static final String REQUIRED = "required";
        public static final String ACCEPTED = "accepted";
    }
}
