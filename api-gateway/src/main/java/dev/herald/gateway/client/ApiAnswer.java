package dev.herald.gateway.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.herald.gateway.service.DashboardRefusal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A service's answer to a dashboard call: its status and JSON body (the API's envelopes). */
public record ApiAnswer(int status, JsonNode body) {

    public boolean ok() {
        return status >= 200 && status < 300;
    }

    /** {@code data} of a success envelope. */
    public JsonNode data() {
        return body.path("data");
    }

    /** The error envelope's message, for a page to show as it is (the API's messages are written for people). */
    public String errorMessage() {
        JsonNode message = body.path("error").path("message");
        return message.isTextual() ? message.asText() : "The request failed (" + status + ").";
    }

    public String errorCode() {
        return body.path("error").path("code").asText("");
    }

    /** A {@code validation_failed} answer's messages by field, to show beside each field of the form. */
    public Map<String, String> fieldErrors() {
        Map<String, String> errors = new LinkedHashMap<>();
        for (JsonNode error : body.path("error").path("details").path("errors")) {
            errors.putIfAbsent(
                    error.path("field").asText(""), error.path("message").asText(""));
        }
        JsonNode parameter = body.path("error").path("details").path("parameter");
        if (parameter.isTextual()) {
            errors.putIfAbsent(parameter.asText(), errorMessage());
        }
        return errors;
    }

    /**
     * {@link #fieldErrors()} for a form with these fields: a list item's message ({@code platforms[2]}) goes to its
     * list's field; a message about anything else, or an error naming no field, to {@code "form"} (above the form).
     */
    public Map<String, String> fieldErrors(Set<String> formFields) {
        Map<String, String> errors = new LinkedHashMap<>();
        fieldErrors().forEach((field, message) -> {
            String formField = field.replaceAll("\\[\\d+]$", "");
            errors.putIfAbsent(formFields.contains(formField) ? formField : "form", message);
        });
        if (errors.isEmpty()) {
            errors.put("form", errorMessage());
        }
        return errors;
    }

    /**
     * This answer when it is a success; otherwise the page's refusal: the API's 404 (an unknown id, or another
     * workspace's) as the dashboard's 404 page, any other error with the API's own message and status.
     */
    public ApiAnswer orRefuse() {
        if (ok()) {
            return this;
        }
        if (status == 404) {
            throw DashboardRefusal.notFound();
        }
        throw new DashboardRefusal(status, "Not done", errorMessage(), Map.of());
    }

    static ApiAnswer of(int status, JsonNode body) {
        return new ApiAnswer(status, body == null ? MissingNode.getInstance() : body);
    }
}
