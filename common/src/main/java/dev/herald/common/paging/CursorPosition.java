package dev.herald.common.paging;

import java.time.Instant;

/** Where the next page starts: after the row with this creation time and id (lists run newest first). */
public record CursorPosition(Instant createdAt, String id) {}
