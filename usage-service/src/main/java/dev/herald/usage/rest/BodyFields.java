package dev.herald.usage.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Field readers JsonBody does not have (integers, timestamps, enums), recording failures in the same 422. */
final class BodyFields {
    private BodyFields() {}

    /** A required integer from {@code min} to {@code max}; null when it failed (the failure is recorded). */
    static Long integer(JsonBody body, JsonNode json, String name, long min, long max) {
        JsonNode value = json.get(name);
        if (value == null || value.isNull()) {
            body.reject(name, "required", name + " is required.");
            return null;
        }
        if (!value.isIntegralNumber()) {
            body.reject(name, "invalid_type", name + " must be an integer.");
            return null;
        }
        if (!value.canConvertToLong() || value.asLong() < min || value.asLong() > max) {
            body.reject(name, "invalid_value", name + " must be an integer from " + min + " to " + max + ".");
            return null;
        }
        return value.asLong();
    }

    /** An optional boolean: absent or null is false; anything but true or false is recorded as a failure. */
    static boolean optionalBoolean(JsonBody body, JsonNode json, String name) {
        JsonNode value = json.get(name);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            body.reject(name, "invalid_type", name + " must be true or false.");
            return false;
        }
        return value.booleanValue();
    }

    /**
     * Copies the failures of an object nested in {@code body} at {@code path} (an array item, say) into
     * {@code body}, each field named {@code path.field}, so one 422 lists every failing field of the request.
     */
    static void nested(JsonBody body, String path, JsonBody nested) {
        try {
            nested.validate();
        } catch (ApiException failure) {
            if (failure.details().get("errors") instanceof List<?> errors) {
                for (Object error : errors) {
                    FieldError field = (FieldError) error;
                    body.reject(path + "." + field.field(), field.code(), path + "." + field.message());
                }
            }
        }
    }

    /** An optional, nullable RFC 3339 timestamp with an explicit offset; null when absent, null or failed. */
    static Instant timestamp(JsonBody body, String name) {
        FieldValue<String> text = body.string(name).nullable().read();
        if (text.orNull() == null) {
            return null;
        }
        Optional<Instant> parsed = Timestamps.parseRfc3339(text.orNull());
        if (parsed.isEmpty()) {
            body.reject(name, "invalid_format", name + " must be an RFC 3339 timestamp with a time zone offset.");
            return null;
        }
        return parsed.get();
    }

    /** A required string naming one of {@code values}; null when it failed. */
    static <E extends Enum<E>> E oneOf(JsonBody body, String name, E[] values, Function<E, String> wireName) {
        String text = body.string(name).required().read().orNull();
        if (text == null) {
            return null;
        }
        for (E value : values) {
            if (wireName.apply(value).equals(text)) {
                return value;
            }
        }
        body.reject(
                name,
                "invalid_value",
                name + " must be one of "
                        + String.join(", ", Arrays.stream(values).map(wireName).toList()) + ".");
        return null;
    }

    /**
     * An optional JSON object body read from raw text: an empty body is an empty object; anything else must be
     * {@code application/json} and well-formed.
     */
    static JsonNode optionalObject(ObjectMapper mapper, String raw, MediaType type) throws IOException {
        if (raw == null || raw.isBlank()) {
            return mapper.createObjectNode();
        }
        if (type == null || !type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            throw new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "The request body must be application/json.");
        }
        return mapper.readTree(raw);
    }
}
