package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/** An OAuth client as the admin API shows it; {@code client_secret} only in the response that created it. */
public record AdminOAuthClient(
        String clientId,
        String workspaceId,
        Mode mode,
        List<String> scopes,
        String name,
        @JsonInclude(JsonInclude.Include.NON_NULL) String clientSecret,
        Instant createdAt,
        Instant revokedAt) {}
