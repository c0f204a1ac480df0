package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * A webhook endpoint as the API shows it. {@code secret} appears only in the answers that create it
 * ({@code POST /webhooks}, {@code POST /webhooks/{id}/rotate-secret}) and never again. {@code disabled_reason} is
 * {@code requested} (DELETE) or {@code endpoint_gone} (the receiver answered 410 Gone), null while enabled.
 * {@code kind} is {@code push} (deliveries are POSTed to {@code url}) or {@code pull} (no {@code url}: its deliveries are
 * read through {@code GET /webhooks/{id}/events}, as {@code ./herald listen} does).
 */
public record WebhookEndpoint(
        String id,
        String kind,
        String url,
        String description,
        List<String> events,
        String status,
        String disabledReason,
        Mode mode,
        Instant createdAt,
        Instant updatedAt,
        Instant disabledAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) String secret) {
    public static final String ENABLED = "enabled";
    public static final String DISABLED = "disabled";
    public static final String REQUESTED = "requested";
    public static final String ENDPOINT_GONE = "endpoint_gone";
    public static final String PUSH = "push";
    public static final String PULL = "pull";

    public WebhookEndpoint withSecret(String newSecret) {
        return new WebhookEndpoint(
                id,
                kind,
                url,
                description,
                events,
                status,
                disabledReason,
                mode,
                createdAt,
                updatedAt,
                disabledAt,
                newSecret);
    }
}
