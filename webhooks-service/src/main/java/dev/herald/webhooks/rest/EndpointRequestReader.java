package dev.herald.webhooks.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.webhooks.model.EndpointChanges;
import dev.herald.webhooks.service.ReceiverAddresses;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads {@code POST /webhooks}: {@code kind} ({@code push}, the default, or {@code pull}), {@code url} (a push
 * endpoint's, required, at most 2048 characters, absolute https without user information; a pull endpoint has none, so
 * absent or null), {@code description} (optional, at most 500 characters, null allowed), {@code events} (required,
 * a non-empty array of distinct event names). Every problem is collected; the caller adds the address check and
 * calls {@link JsonBody#validate()}. {@code PATCH /webhooks/{id}} takes {@code description} and {@code events} by the
 * same rules, each optional; anything else (the url included: a new address is a new endpoint) is unknown.
 */
final class EndpointRequestReader {
    static final int MAX_DESCRIPTION_LENGTH = 500;
    private static final Set<String> FIELDS = Set.of("kind", "url", "description", "events");
    private static final Pattern KINDS = Pattern.compile("^(push|pull)$");
    private static final Set<String> CHANGEABLE_FIELDS = Set.of("description", "events");

    private EndpointRequestReader() {}

    /** A read body: the values that passed (null where a field failed) and the reader holding the problems. */
    record EndpointRequest(JsonBody body, String kind, String url, String description, List<String> events) {}

    static EndpointRequest read(JsonNode json, ReceiverAddresses addresses) {
        JsonBody body = JsonBody.of(json, FIELDS);
        String kind = body.string("kind").matching(KINDS, "push or pull").read().orNull();
        boolean pull = WebhookEndpoint.PULL.equals(kind);
        JsonNode sentUrl = json.get("url");
        if (pull && sentUrl != null && !sentUrl.isNull()) {
            body.reject(
                    "url", "invalid_value", "url must be absent for a pull endpoint: its events are read, not sent.");
        }
        FieldValue<String> url = pull
                ? FieldValue.absent()
                : body.string("url")
                        .required()
                        .length(1, ReceiverAddresses.MAX_URL_LENGTH)
                        .read();
        String acceptedUrl = url.orNull();
        if (acceptedUrl != null) {
            String problem = addresses.formProblem(acceptedUrl).orElse(null);
            if (problem != null) {
                body.reject("url", "invalid_format", "url " + problem + ".");
                acceptedUrl = null;
            }
        }
        FieldValue<String> description = description(body);
        return new EndpointRequest(
                body,
                pull ? WebhookEndpoint.PULL : WebhookEndpoint.PUSH,
                acceptedUrl,
                description.orNull(),
                events(body, json.get("events")));
    }

    /** Reads a {@code PATCH /webhooks/{id}} body; fails with every problem at once. */
    static EndpointChanges readChanges(JsonNode json) {
        JsonBody body = JsonBody.of(json, CHANGEABLE_FIELDS);
        FieldValue<String> description = description(body);
        FieldValue<List<String>> events =
                json.has("events") ? FieldValue.of(events(body, json.get("events"))) : FieldValue.absent();
        body.validate();
        return new EndpointChanges(description, events);
    }

    private static FieldValue<String> description(JsonBody body) {
        return body.string("description")
                .nullable()
                .length(0, MAX_DESCRIPTION_LENGTH)
                .read();
    }

    private static List<String> events(JsonBody body, JsonNode events) {
        if (events == null || events.isNull()) {
            body.reject("events", "required", "events is required: name at least one of " + names() + ".");
            return List.of();
        }
        if (!events.isArray()) {
            body.reject("events", "invalid_type", "events must be an array of event names.");
            return List.of();
        }
        if (events.isEmpty()) {
            body.reject("events", "too_short", "events must name at least one of " + names() + ".");
            return List.of();
        }
        Set<String> accepted = new LinkedHashSet<>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode event = events.get(i);
            String field = "events[" + i + "]";
            if (!event.isTextual()) {
                body.reject(field, "invalid_type", field + " must be a string.");
            } else if (!WebhookEventTypes.SUBSCRIBABLE.contains(event.textValue())) {
                body.reject(field, "invalid_value", field + " must be one of " + names() + ".");
            } else if (!accepted.add(event.textValue())) {
                body.reject(field, "invalid_value", field + " repeats " + event.textValue() + ".");
            }
        }
        return new ArrayList<>(accepted);
    }

    private static String names() {
        return String.join(", ", WebhookEventTypes.SUBSCRIBABLE);
    }
}
