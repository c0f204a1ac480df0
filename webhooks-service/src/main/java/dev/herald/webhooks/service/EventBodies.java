package dev.herald.webhooks.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Webhook event bodies (DESIGN section 3): {@code {"id": "evt_...", "type", "created_at", "mode", "data"}}, written
 * once and stored, so every attempt sends the same bytes.
 */
@ApplicationScoped
public class EventBodies {
    private final ObjectMapper mapper;

    public EventBodies(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The webhook event id of a source event ({@code post.finalized}, {@code account.events}): derived from its id, so
     * the same source event always makes the same webhook event, whatever happens to this service's records.
     */
    public static String eventIdFor(String sourceEventId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("herald-webhook-event\n" + sourceEventId).getBytes(StandardCharsets.UTF_8));
            return IdPrefix.EVENT.prefix() + "_" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    public String body(String id, String type, Instant createdAt, Mode mode, JsonNode data) {
        ObjectNode event = mapper.createObjectNode();
        event.put("id", id);
        event.put("type", type);
        event.put("created_at", createdAt.toString());
        event.put("mode", mode.wireName());
        event.set("data", data);
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a webhook event could not be serialized", e);
        }
    }
}
