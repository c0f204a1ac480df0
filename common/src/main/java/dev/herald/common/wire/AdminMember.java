package dev.herald.common.wire;

import java.time.Instant;

/** A dashboard member as the admin API shows it: named by email, by OIDC subject, or both; role owner, developer or viewer. */
public record AdminMember(
        String id, String workspaceId, String email, String subject, String role, Instant createdAt) {}
