package dev.herald.common.wire;

import java.time.Instant;

/** A workspace as the admin API shows it. */
public record AdminWorkspace(String id, String name, Instant createdAt) {}
