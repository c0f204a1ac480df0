package dev.herald.openapi;

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
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The public API's OpenAPI document as tests read it: the JSON tree, its {@code $ref}s followed, and JSON Schema
 * 2020-12 validators for its schemas (a component, or any schema node of the document) with the document's
 * components in reach. The gateway's tests read it from the classpath, the system tests as the gateway serves it.
 */
public final class OpenApiDocument {
    public static final ObjectMapper JSON = new ObjectMapper();
    public static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    /** Formats (date-time, uri) are assertions here, not annotations: the document promises them. */
    private static final SchemaValidatorsConfig STRICT =
            SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();

    private final String text;
    private final JsonNode root;

    private OpenApiDocument(String text) {
        this.text = text;
        try {
            this.root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the OpenAPI document is not JSON", e);
        }
    }

    /** The document from its text (as served, or as read from a file). */
    public static OpenApiDocument parse(String text) {
        return new OpenApiDocument(text);
    }

    /** The document from a classpath resource, such as the gateway's {@code openapi/herald-public-api.json}. */
    public static OpenApiDocument fromClasspath(String name) {
        return new OpenApiDocument(classpathResource(name));
    }

    /** A classpath resource's text (the document, or a schema a test checks it against). */
    public static String classpathResource(String name) {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is not on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String text() {
        return text;
    }

    public JsonNode root() {
        return root;
    }

    /** The operation object for a method and path template; a missing node when the document has none. */
    public JsonNode operation(String method, String template) {
        return root.path("paths").path(template).path(method.toLowerCase());
    }

    /** Follows {@code $ref}s within the document until a node without one. */
    public JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        while (current != null && current.has("$ref")) {
            current = root.at(current.get("$ref").asText().substring(1));
        }
        return current;
    }

    /** The schema of an operation's JSON answer with {@code status}. */
    public JsonNode responseSchema(String method, String template, int status) {
        JsonNode response =
                resolve(operation(method, template).path("responses").path(Integer.toString(status)));
        if (response.isMissingNode()) {
            throw new AssertionError(method + " " + template + " declares no " + status + " response");
        }
        return response.path("content").path("application/json").path("schema");
    }

    /** A validator for one component schema, such as {@code Profile}. */
    public JsonSchema component(String name) {
        return validator(JSON.createObjectNode().put("$ref", "#/components/schemas/" + name));
    }

    /**
     * A validator for any schema node of the document. The components become the validator's {@code $defs}, so
     * the document's {@code #/components/schemas/...} references are rewritten to {@code #/$defs/...}.
     */
    public JsonSchema validator(JsonNode schema) {
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

    /** Validation problems as readable lines, sorted; empty when the instance conforms. */
    public static List<String> problems(JsonSchema schema, JsonNode instance) {
        return schema.validate(instance).stream()
                .map(ValidationMessage::getMessage)
                .sorted()
                .toList();
    }
}
