package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.PostAnalytics;

/** A platform's answer about one post: the normalized metrics and the platform's own fields they came from. */
public record ProviderMetrics(PostAnalytics.Metrics metrics, JsonNode raw) {

    /** A count the platform gave as a number or a numeric string (YouTube's); null when absent or not a count. */
    static Long count(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (value.isIntegralNumber()) {
            return value.asLong();
        }
        if (value.isTextual() && value.asText().matches("^[0-9]{1,18}$")) {
            return Long.parseLong(value.asText());
        }
        return null;
    }
}
