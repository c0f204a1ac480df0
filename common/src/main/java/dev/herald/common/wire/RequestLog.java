package dev.herald.common.wire;

import dev.herald.common.auth.Mode;
import java.time.Instant;

/** One API request as {@code GET /logs} shows it; {@code id} is the request's {@code x-request-id}. */
public record RequestLog(
        String id,
        String method,
        String path,
        int status,
        int durationMs,
        String keyId,
        Mode mode,
        Instant createdAt) {}
