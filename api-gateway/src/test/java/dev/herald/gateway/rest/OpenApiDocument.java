package dev.herald.gateway.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The gateway's OpenAPI document as tests read it: the JSON tree, and JSON Schema 2020-12 validators for its
 * schemas (a component, or any schema node of the document) with the document's components in reach.
 */
final class OpenApiDocument {
    static final ObjectMapper JSON = new ObjectMapper();
    static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    /** Formats (date-time, uri) are assertions here, not annotations: the document promises them. */
    static final SchemaValidatorsConfig STRICT = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();

    final String text;
    final JsonNode root;

    private OpenApiDocument(String text) {
        this.text = text;
        try {
            this.root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the OpenAPI document is not JSON", e);
        }
    }

    static OpenApiDocument load() {
        return new OpenApiDocument(resource(OpenApiDocumentRoute.RESOURCE));
    }

    static String resource(String name) {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is not on the test classpath");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode operation(String method, String template) {
        return root.path("paths").path(template).path(method.toLowerCase());
    }

    /** Follows a {@code $ref} within the document (one level; the document never chains them). */
    JsonNode resolve(JsonNode node) {
        JsonNode ref = node.get("$ref");
        return ref == null ? node : root.at(ref.asText().substring(1));
    }

    /** The schema of an operation's JSON answer with {@code status}. */
    JsonNode responseSchema(String method, String template, int status) {
        JsonNode response = resolve(operation(method, template).path("responses").path(Integer.toString(status)));
        if (response.isMissingNode()) {
            throw new AssertionError(method + " " + template + " declares no " + status + " response");
        }
        return response.path("content").path("application/json").path("schema");
    }

    /** A validator for one component schema, such as {@code Profile}. */
    JsonSchema component(String name) {
        return validator(JSON.createObjectNode().put("$ref", "#/components/schemas/" + name));
    }

    /**
     * A validator for any schema node of the document. The components become the validator's {@code $defs}, so
     * the document's {@code #/components/schemas/...} references are rewritten to {@code #/$defs/...}.
     */
    JsonSchema validator(JsonNode schema) {
        ObjectNode wrapper = schema.deepCopy();
        wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        wrapper.set("$defs", root.path("components").path("schemas"));
        try {
            String rewritten = JSON.writeValueAsString(wrapper).replace("\"#/components/schemas/", "\"#/$defs/");
            return SCHEMAS.getSchema(JSON.readTree(rewritten), STRICT);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Validation problems as readable lines; empty when the instance conforms. */
    static List<String> problems(JsonSchema schema, JsonNode instance) {
        Set<ValidationMessage> messages = schema.validate(instance);
        return messages.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.toList());
    }
}
