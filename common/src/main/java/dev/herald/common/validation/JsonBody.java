package dev.herald.common.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a JSON object body field by field and collects every problem before failing, so one
 * {@code 422 validation_failed} names all failing fields at once. Only the documented fields are
 * accepted: anything else (including {@code id}, {@code mode}, timestamps) is an {@code unknown_field}.
 */
public final class JsonBody {
    private final JsonNode node;
    private final List<FieldError> errors = new ArrayList<>();

    private JsonBody(JsonNode node) {
        this.node = node;
    }

    /**
     * Bodies of the POST actions that take none: absent, empty or {@code {}}; a body that is not JSON, or JSON that is
     * not an object, is a {@code 400}, any field a {@code 422} ({@code unknown_field}). Checked before anything is
     * looked up, so a malformed request is answered as one whatever it names.
     */
    public static void noFields(String raw, ObjectMapper mapper) {
        if (raw == null || raw.isBlank()) {
            return;
        }
        JsonNode json;
        try {
            json = mapper.readTree(raw);
        } catch (JsonProcessingException e) {
            throw ApiException.invalidRequest("The request body is not valid JSON.");
        }
        of(json, Set.of()).validate();
    }

    public static JsonBody of(JsonNode body, Set<String> documentedFields) {
        if (body == null || body.isMissingNode() || body.isNull()) {
            throw ApiException.invalidRequest("A JSON object body is required.");
        }
        if (!body.isObject()) {
            throw ApiException.invalidRequest("The request body must be a JSON object.");
        }
        JsonBody reader = new JsonBody(body);
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!documentedFields.contains(name)) {
                reader.reject(name, "unknown_field", name + " is not a field of this request.");
            }
        }
        return reader;
    }

    public StringField string(String name) {
        return new StringField(name);
    }

    public void reject(String field, String code, String message) {
        errors.add(new FieldError(field, code, message));
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** The problems found so far, for a caller that adds what only a lookup can find before answering them all. */
    public List<FieldError> errors() {
        return List.copyOf(errors);
    }

    /** Fails with {@code 422 validation_failed} listing every problem found so far, if any. */
    public void validate() {
        if (!errors.isEmpty()) {
            throw ApiException.validationFailed(errors);
        }
    }

    /** The rules for one string field; {@link #read()} checks them and records what fails. */
    public final class StringField {
        private final String name;
        private boolean required;
        private boolean nullable;
        private boolean trimmed;
        private int minLength = 0;
        private int maxLength = Integer.MAX_VALUE;
        private Pattern pattern;
        private String patternDescription;

        private StringField(String name) {
            this.name = name;
        }

        public StringField required() {
            this.required = true;
            return this;
        }

        public StringField nullable() {
            this.nullable = true;
            return this;
        }

        public StringField trimmed() {
            this.trimmed = true;
            return this;
        }

        public StringField length(int min, int max) {
            this.minLength = min;
            this.maxLength = max;
            return this;
        }

        public StringField matching(Pattern pattern, String description) {
            this.pattern = pattern;
            this.patternDescription = description;
            return this;
        }

        public FieldValue<String> read() {
            JsonNode value = node.get(name);
            if (value == null) {
                if (required) {
                    reject(name, "required", name + " is required.");
                }
                return FieldValue.absent();
            }
            if (value.isNull()) {
                if (required) {
                    reject(name, "required", name + " is required.");
                } else if (!nullable) {
                    reject(name, "not_nullable", name + " cannot be null.");
                }
                return FieldValue.explicitNull();
            }
            if (!value.isTextual()) {
                reject(name, "invalid_type", name + " must be a string.");
                return FieldValue.absent();
            }
            String text = trimmed ? value.textValue().strip() : value.textValue();
            int length = text.codePointCount(0, text.length());
            if (length < minLength) {
                reject(
                        name,
                        "too_short",
                        minLength == 1
                                ? name + " must not be empty."
                                : name + " must be at least " + minLength + " characters.");
                return FieldValue.absent();
            }
            if (length > maxLength) {
                reject(name, "too_long", name + " must be at most " + maxLength + " characters.");
                return FieldValue.absent();
            }
            if (pattern != null && !pattern.matcher(text).matches()) {
                reject(name, "invalid_format", name + " must be " + patternDescription + ".");
                return FieldValue.absent();
            }
            return FieldValue.of(text);
        }
    }
}
