package dev.herald.accounts.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.AccountAnalytics;
import io.vertx.core.json.JsonObject;

/** A platform's answer about an account: the normalized metrics and the platform's own fields they came from. */
public record AccountStatistics(AccountAnalytics.Metrics metrics, JsonNode raw) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The platform's fields as they came, for {@code raw}. */
    public static JsonNode raw(JsonObject fields) {
        try {
            return JSON.readTree(fields.encode());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a platform answer could not be kept", e);
        }
    }

    /** A count given as a number or a numeric string (YouTube's); null when absent or not a count. */
    public static Long count(JsonObject fields, String name) {
        Object value = fields.getValue(name);
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof String text && text.matches("^[0-9]{1,18}$")) {
            return Long.parseLong(text);
        }
        return null;
    }
}
