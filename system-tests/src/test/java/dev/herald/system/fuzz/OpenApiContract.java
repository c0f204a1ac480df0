package dev.herald.system.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import dev.herald.openapi.OpenApiDocument;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The public API's OpenAPI document as the fuzzer reads it (fetched from the running gateway, so what is checked
 * is what is served) and the judge of every answer: the status must be declared for the operation, the declared
 * headers present and well-typed, and the body valid against the declared schema, formats included.
 */
public final class OpenApiContract {
    static final ObjectMapper JSON = OpenApiDocument.JSON;
    private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");

    /** One operation of the document: its method, path template and the operation object. */
    public record Operation(String method, String template, JsonNode node) {
        public String id() {
            return node.path("operationId").asText(method + " " + template);
        }

        /** Whether the operation takes a JSON request body. */
        public boolean hasBody() {
            return node.has("requestBody");
        }
    }

    private final OpenApiDocument document;
    private final Map<String, JsonSchema> validators = new ConcurrentHashMap<>();

    public OpenApiContract(String documentText) {
        this.document = OpenApiDocument.parse(documentText);
    }

    public List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths =
                        document.root().path("paths").fields();
                paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                if (path.getValue().has(method)) {
                    operations.add(new Operation(
                            method.toUpperCase(), path.getKey(), path.getValue().get(method)));
                }
            }
        }
        return operations;
    }

    /** Follows {@code $ref}s within the document until a node without one. */
    public JsonNode resolve(JsonNode node) {
        return document.resolve(node);
    }

    /** The name of the component a schema node refers to ({@code ProfileId}), if it is a reference. */
    public static Optional<String> refName(JsonNode schema) {
        JsonNode ref = schema.get("$ref");
        return ref == null
                ? Optional.empty()
                : Optional.of(ref.asText().substring(ref.asText().lastIndexOf('/') + 1));
    }

    /** The operation's parameters, resolved (query, path and header). */
    public List<JsonNode> parameters(Operation operation) {
        List<JsonNode> parameters = new ArrayList<>();
        operation.node().path("parameters").forEach(parameter -> parameters.add(resolve(parameter)));
        return parameters;
    }

    /** The schema of the operation's JSON request body (possibly a {@code $ref}). */
    public JsonNode requestSchema(Operation operation) {
        return operation
                .node()
                .path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema");
    }

    /**
     * Everything wrong with one answer, as readable lines; empty when the answer is what the document promises.
     * A 5xx is always wrong here: the fuzzer drives a healthy suite, so even a declared 503 is a finding.
     */
    public List<String> violations(Operation operation, int status, HttpHeaders headers, String body) {
        List<String> violations = new ArrayList<>();
        if (status >= 500) {
            violations.add(status + " answered: " + abbreviate(body));
        }
        JsonNode declared = operation.node().path("responses").path(Integer.toString(status));
        if (declared.isMissingNode()) {
            declared = operation.node().path("responses").path("default");
        }
        if (declared.isMissingNode()) {
            violations.add("status " + status + " is not declared: " + abbreviate(body));
            return violations;
        }
        JsonNode response = resolve(declared);
        for (Iterator<Map.Entry<String, JsonNode>> it = response.path("headers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> header = it.next();
            JsonNode definition = resolve(header.getValue());
            Optional<String> value = headers.firstValue(header.getKey());
            if (value.isEmpty()) {
                if (definition.path("required").asBoolean(false)) {
                    violations.add(status + " lacks header " + header.getKey());
                }
                continue;
            }
            problems(definition.path("schema"), headerValue(definition.path("schema"), value.get()))
                    .forEach(problem ->
                            violations.add(status + " header " + header.getKey() + "=" + value.get() + ": " + problem));
        }
        JsonNode content = response.path("content").path("application/json");
        if (content.isMissingNode()) {
            return violations;
        }
        String contentType = headers.firstValue("content-type").orElse("");
        if (!contentType.startsWith("application/json")) {
            violations.add(status + " content-type is '" + contentType + "', not application/json");
        }
        JsonNode instance;
        try {
            instance = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            violations.add(status + " body is not JSON: " + abbreviate(body));
            return violations;
        }
        problems(content.path("schema"), instance).forEach(problem -> violations.add(status + " body: " + problem));
        if (instance != null && instance.has("request_id")) {
            String requestId = instance.path("request_id").asText();
            if (!requestId.equals(headers.firstValue("x-request-id").orElse(null))) {
                violations.add(status + " request_id " + requestId + " differs from x-request-id "
                        + headers.firstValue("x-request-id").orElse("(absent)"));
            }
        }
        return violations;
    }

    /** A header's text as the JSON value its schema describes (integers are numbers, the rest strings). */
    private JsonNode headerValue(JsonNode schema, String text) {
        if ("integer".equals(resolve(schema).path("type").asText())) {
            try {
                return JSON.getNodeFactory().numberNode(Long.parseLong(text.trim()));
            } catch (NumberFormatException e) {
                return JSON.getNodeFactory().textNode(text);
            }
        }
        return JSON.getNodeFactory().textNode(text);
    }

    /** Validation problems of an instance against any schema node of the document. */
    public List<String> problems(JsonNode schema, JsonNode instance) {
        // Cached: the fuzzer checks thousands of answers against the same few dozen schemas.
        JsonSchema validator = validators.computeIfAbsent(schema.toString(), key -> document.validator(schema));
        return OpenApiDocument.problems(validator, instance);
    }

    static String abbreviate(String text) {
        if (text == null) {
            return "(no body)";
        }
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
