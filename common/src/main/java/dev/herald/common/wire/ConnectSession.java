package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * A hosted connection link as the API shows it. {@code url} is the private capability URL: present only in
 * the creation response, never again (only a hash of its token is stored). {@code status} is one of
 * {@link #OPEN}, {@link #COMPLETED}, {@link #EXPIRED}, {@link #REVOKED}; {@code accountIds} grows, in
 * connection order, as the end user connects accounts through the link. {@code displayName}: the name the page
 * shows for the customer instead of its branding's (null: the branding's). {@code locale}: the hosted page's language
 * as the creator asked for it (a BCP 47 tag), or null when the end user's browser decides.
 */
public record ConnectSession(
        String id,
        String profileId,
        Mode mode,
        String status,
        List<Platform> platforms,
        String redirectUrl,
        String embedOrigin,
        String displayName,
        List<String> accountIds,
        Instant expiresAt,
        Instant completedAt,
        Instant revokedAt,
        Instant createdAt,
        Instant updatedAt,
        String locale,
        @JsonInclude(JsonInclude.Include.NON_NULL) String url) {
    public static final String OPEN = "open";
    public static final String COMPLETED = "completed";
    public static final String EXPIRED = "expired";
    public static final String REVOKED = "revoked";

    /** The same session without its private URL, as every read after creation shows it. */
    public ConnectSession withoutUrl() {
        return new ConnectSession(
                id,
                profileId,
                mode,
                status,
                platforms,
                redirectUrl,
                embedOrigin,
                displayName,
                accountIds,
                expiresAt,
                completedAt,
                revokedAt,
                createdAt,
                updatedAt,
                locale,
                null);
    }
}
