package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.openapi.OpenApiDocument;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document is a valid OpenAPI 3.1 document, and it describes exactly the gateway's route catalog:
 * the same operations, scopes and metering, and the refusals any request can meet. No Quarkus needed.
 */
class OpenApiDocumentTest {
    private static final Set<String> HTTP_METHODS =
            Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Pattern TEMPLATE_VARIABLE = Pattern.compile("\\{([^}]+)}");

    private final OpenApiDocument document = OpenApiDocument.fromClasspath(OpenApiDocumentRoute.RESOURCE);
    private final List<ApiRoute> catalog = new RouteCatalog().routes();

    @Test
    void conformsToTheOpenApiInitiativesSchemaForOpenApi31() {
        JsonSchema oas31 = OpenApiDocument.SCHEMAS.getSchema(
                parse(OpenApiDocument.classpathResource("openapi/oas-3.1-schema-2022-10-07.json")));
        assertThat(document.root().path("openapi").asText()).isEqualTo("3.1.0");
        assertThat(OpenApiDocument.problems(oas31, document.root())).isEmpty();
        // The validator is awake: a document without its info object is refused.
        assertThat(OpenApiDocument.problems(
                        oas31,
                        ((com.fasterxml.jackson.databind.node.ObjectNode)
                                        document.root().deepCopy())
                                .without("info")))
                .isNotEmpty();
    }

    @Test
    void everySchemaInItIsAValidJsonSchema202012() {
        JsonSchema metaSchema = OpenApiDocument.SCHEMAS.getSchema(SchemaLocation.of(SchemaId.V202012));
        List<String> problems = new ArrayList<>();
        eachSchema((where, schema) ->
                OpenApiDocument.problems(metaSchema, schema).forEach(problem -> problems.add(where + ": " + problem)));
        assertThat(problems).isEmpty();
        assertThat(OpenApiDocument.problems(metaSchema, parse("{\"type\": 5}"))).isNotEmpty();
    }

    @Test
    void theReferenceParserReadsItAsOpenApi31WithoutAMessage() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(document.text(), null, options);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getSpecVersion()).isEqualTo(SpecVersion.V31);
        assertThat(result.getOpenAPI().getPaths()).hasSize((int)
                catalog.stream().map(ApiRoute::template).distinct().count());
    }

    @Test
    void everyReferenceResolvesWithinTheDocument() {
        List<String> dangling = new ArrayList<>();
        walk(document.root(), "", (where, node) -> {
            JsonNode ref = node.get("$ref");
            if (ref != null
                    && (!ref.asText().startsWith("#/")
                            || document.root().at(ref.asText().substring(1)).isMissingNode())) {
                dangling.add(where + " -> " + ref.asText());
            }
        });
        assertThat(dangling).isEmpty();
    }

    @Test
    void documentsEveryCatalogRouteAndNothingElse() {
        Set<String> routes = new TreeSet<>();
        catalog.forEach(route -> routes.add(route.method() + " " + route.template()));
        Set<String> operations = new TreeSet<>();
        document.root()
                .path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
                    if (HTTP_METHODS.contains(method)) {
                        operations.add(method.toUpperCase() + " " + path.getKey());
                    }
                }));
        assertThat(operations).isEqualTo(routes);
    }

    @Test
    void eachOperationNeedsTheCatalogsScopeAndIsMeteredAsTheCatalogSays() {
        for (ApiRoute route : catalog) {
            JsonNode operation = document.operation(route.method(), route.template());
            String name = route.method() + " " + route.template();
            JsonNode scope = operation.path("x-herald-scope");
            assertThat(scope.isNull() ? null : scope.asText())
                    .as(name + " x-herald-scope")
                    .isEqualTo(route.scope());
            assertThat(operation.path("x-herald-metered").asBoolean(!route.metered()))
                    .as(name + " x-herald-metered")
                    .isEqualTo(route.metered());
            List<String> required = route.scope() == null ? List.of() : List.of(route.scope());
            assertThat(operation.path("security")).as(name + " security").hasSize(2);
            for (JsonNode requirement : operation.path("security")) {
                Map.Entry<String, JsonNode> scheme = requirement.fields().next();
                assertThat(OpenApiDocument.JSON.convertValue(scheme.getValue(), List.class))
                        .as(name + " " + scheme.getKey() + " scopes")
                        .isEqualTo(required);
            }
        }
    }

    @Test
    void everyOperationDeclaresTheRefusalsAnyRequestCanMeet() {
        for (ApiRoute route : catalog) {
            JsonNode responses =
                    document.operation(route.method(), route.template()).path("responses");
            String name = route.method() + " " + route.template();
            // A repeated query parameter or two Authorization headers (both 400 invalid_request) can meet any request.
            assertThat(responses.has("400")).as(name + " 400").isTrue();
            assertThat(responses.has("401")).as(name + " 401").isTrue();
            assertThat(document.resolve(responses.path("401")).path("headers").has("WWW-Authenticate"))
                    .as(name + " 401 challenge")
                    .isTrue();
            assertThat(responses.has("429")).as(name + " 429").isTrue();
            assertThat(responses.has("500")).as(name + " 500").isTrue();
            assertThat(responses.has("503")).as(name + " 503").isTrue();
            assertThat(responses.has("403")).as(name + " 403").isEqualTo(route.scope() != null);
            if (!route.method().equals("GET")) {
                assertThat(responses.has("413")).as(name + " 413").isTrue();
                assertThat(responses.has("415")).as(name + " 415").isTrue();
            }
            responses.fields().forEachRemaining(entry -> {
                JsonNode headers = document.resolve(entry.getValue()).path("headers");
                String answer = name + " " + entry.getKey();
                assertThat(headers.has("x-request-id"))
                        .as(answer + " x-request-id")
                        .isTrue();
                assertThat(headers.has("X-RateLimit-Limit")
                                && headers.has("X-RateLimit-Remaining")
                                && headers.has("X-RateLimit-Reset"))
                        .as(answer + " X-RateLimit-*")
                        .isTrue();
                assertThat(headers.has("Cache-Control"))
                        .as(answer + " Cache-Control")
                        .isTrue();
                if (entry.getKey().equals("429")) {
                    assertThat(headers.has("Retry-After"))
                            .as(answer + " Retry-After")
                            .isTrue();
                } else if (!entry.getKey().equals("503")) {
                    // Only a 429 always says when to come back; a 503 does when the outage has a known end.
                    assertThat(headers.has("Retry-After"))
                            .as(answer + " Retry-After")
                            .isFalse();
                }
                assertThat(document.resolve(entry.getValue()).path("content").has("application/json"))
                        .as(answer + " JSON")
                        .isTrue();
            });
        }
    }

    @Test
    void theWebhooksSectionDescribesEveryEventAnEndpointCanSubscribeToAndTheTestEvent() {
        Set<String> subscribable = new TreeSet<>();
        document.root()
                .path("components")
                .path("schemas")
                .path("CreateWebhookEndpointRequest")
                .path("properties")
                .path("events")
                .path("items")
                .path("enum")
                .forEach(name -> subscribable.add(name.asText()));
        assertThat(subscribable).contains("post.published", "post.partially_failed", "post.failed", "post.canceled");
        Set<String> described = new TreeSet<>();
        document.root().path("webhooks").fieldNames().forEachRemaining(described::add);
        Set<String> expected = new TreeSet<>(subscribable);
        expected.add("webhook.test");
        assertThat(described).isEqualTo(expected);
        Set<String> types = new TreeSet<>();
        document.root()
                .path("components")
                .path("schemas")
                .path("WebhookEvent")
                .path("properties")
                .path("type")
                .path("enum")
                .forEach(name -> types.add(name.asText()));
        assertThat(types).isEqualTo(expected);
        for (String event : described) {
            JsonNode operation = document.root().path("webhooks").path(event).path("post");
            Set<String> headers = new TreeSet<>();
            operation
                    .path("parameters")
                    .forEach(parameter -> headers.add(parameter.path("name").asText()));
            assertThat(headers).as(event).containsExactly("webhook-id", "webhook-signature", "webhook-timestamp");
        }
    }

    @Test
    void eachPathVariableIsADeclaredRequiredPathParameter() {
        for (ApiRoute route : catalog) {
            Set<String> variables = new TreeSet<>();
            Matcher matcher = TEMPLATE_VARIABLE.matcher(route.template());
            while (matcher.find()) {
                variables.add(matcher.group(1));
            }
            Set<String> declared = new TreeSet<>();
            for (JsonNode parameter :
                    document.operation(route.method(), route.template()).path("parameters")) {
                JsonNode resolved = document.resolve(parameter);
                if (resolved.path("in").asText().equals("path")) {
                    assertThat(resolved.path("required").asBoolean()).isTrue();
                    declared.add(resolved.path("name").asText());
                }
            }
            assertThat(declared).as(route.method() + " " + route.template()).isEqualTo(variables);
        }
    }

    @Test
    void aBatchItemIsACreatePostRequestWithItsIdempotencyKey() {
        JsonNode schemas = document.root().path("components").path("schemas");
        JsonNode create = schemas.path("CreatePostRequest");
        ObjectNode item = schemas.path("PostBatchRequestItem").deepCopy();
        // The key's rules are the Idempotency-Key header's.
        for (String rule : List.of("minLength", "maxLength")) {
            assertThat(item.at("/properties/idempotency_key/" + rule))
                    .isEqualTo(document.root().at("/components/parameters/IdempotencyKey/schema/" + rule));
        }
        // When CreatePostRequest changes, PostBatchRequestItem changes with it: the same properties and required ones.
        assertThat(item.path("required").get(0).asText()).isEqualTo("idempotency_key");
        ((ArrayNode) item.get("required")).remove(0);
        assertThat(item.path("required")).isEqualTo(create.path("required"));
        JsonNode postProperties = ((ObjectNode) item.get("properties")).without("idempotency_key");
        assertThat(postProperties).isEqualTo(create.path("properties"));
        assertThat(item.path("additionalProperties")).isEqualTo(create.path("additionalProperties"));
    }

    /** Every Schema Object: the components' schemas and each {@code schema} of a parameter, header or media type. */
    private void eachSchema(BiConsumer<String, JsonNode> visit) {
        document.root()
                .path("components")
                .path("schemas")
                .fields()
                .forEachRemaining(entry -> visit.accept("#/components/schemas/" + entry.getKey(), entry.getValue()));
        walk(document.root(), "", (where, node) -> {
            if (node.has("schema") && !where.startsWith("/components/schemas")) {
                visit.accept(where + "/schema", node.get("schema"));
            }
        });
    }

    private static void walk(JsonNode node, String where, BiConsumer<String, JsonNode> visit) {
        if (node.isObject()) {
            visit.accept(where, node);
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                walk(
                        field.getValue(),
                        where + "/" + field.getKey().replace("~", "~0").replace("/", "~1"),
                        visit);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), where + "/" + i, visit);
            }
        }
    }

    private static JsonNode parse(String json) {
        try {
            return OpenApiDocument.JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
