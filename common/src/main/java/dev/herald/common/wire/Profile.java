package dev.herald.common.wire;

import dev.herald.common.auth.Mode;
import java.time.Instant;

/** A profile as the API shows it. */
public record Profile(String id, String name, String externalId, Mode mode, Instant createdAt, Instant updatedAt) {}
