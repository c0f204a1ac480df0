package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * An API key as the admin API shows it. {@code secret} is present only in the response that created the
 * key; afterwards only {@code last4} identifies it.
 */
public record AdminApiKey(
        String id,
        String workspaceId,
        Mode mode,
        List<String> scopes,
        String name,
        String last4,
        @JsonInclude(JsonInclude.Include.NON_NULL) String secret,
        Instant createdAt,
        Instant revokedAt) {}
