package dev.herald.fakes.model;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One request a fake platform received and what it answered. The {@code authorization} header keeps its scheme and
 * replaces the credential with {@code sha256:<first 16 hex digits>}, so a test can tell tokens apart (and see a
 * refreshed one) without reading them. Parameters and bodies are kept as sent, tokens and client secrets included
 * where a platform takes them there (Meta's {@code access_token}, token requests): they are the fake's own, good
 * nowhere else, and a test may need to check exactly what was sent.
 *
 * @param failure the armed failure's kind that shaped the answer, or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JournalEntry(
        long sequence,
        String platform,
        Instant receivedAt,
        String method,
        String path,
        Map<String, List<String>> query,
        String rawQuery,
        Map<String, List<String>> headers,
        String body,
        int status,
        String failure) {}
