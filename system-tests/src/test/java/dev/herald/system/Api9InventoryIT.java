package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.SecuritySupport.Route;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OWASP API9:2023, improper inventory management: the gateway answers exactly the operations of the OpenAPI document
 * it serves. Each documented operation gets past the gateway's routing to its service; plausible undocumented routes
 * (another version, internal and admin paths, the services' own internal endpoints, Quarkus's endpoints under
 * {@code /q}), other methods on documented paths and path tricks (dot segments, encoded slashes) are the gateway's own
 * {@code 404}/{@code 405} in the envelope. "The gateway's own" is seen in the message: the gateway's routing says
 * {@code No such route: GET /api/v1/...}, which no service writes, so such an answer never came from upstream.
 */
class Api9InventoryIT {
    private static final String GATEWAY_NO_ROUTE = "No such route: ";
    private static final Set<String> HTTP_METHODS = Set.of("get", "post", "put", "patch", "delete");

    private static List<Route> documented;
    private static String key;

    @BeforeAll
    static void readTheServedDocument() {
        // Anonymous, as any client reads it.
        JsonPath document = RestAssured.given()
                .baseUri(RunningSuite.baseUrl())
                .get("/openapi.json")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        Map<String, Map<String, Object>> paths = document.getMap("paths");
        List<Route> operations = new ArrayList<>();
        paths.forEach((template, item) -> item.keySet().stream()
                .filter(HTTP_METHODS::contains)
                .forEach(method -> operations.add(new Route(method.toUpperCase(), template, null))));
        assertThat(operations).as("operations in the served document").hasSizeGreaterThan(30);
        documented = operations;
        key = SecuritySupport.scopedTestKey("API9", SecuritySupport.SCOPES.toArray(String[]::new));
    }

    @Test
    void api9_theServedDocumentListsExactlyTheGatewaysRouteCatalog() {
        Set<String> inDocument = new TreeSet<>();
        documented.forEach(route -> inDocument.add(route.toString()));
        Set<String> inCatalog = new TreeSet<>();
        SecuritySupport.catalog().forEach(route -> inCatalog.add(route.method() + " " + route.template()));
        assertThat(inDocument).isEqualTo(inCatalog);
    }

    @Test
    void api9_everyDocumentedOperationGetsPastTheGatewaysRouting() {
        SoftAssertions softly = new SoftAssertions();
        for (Route route : documented) {
            // Unknown ids and an empty JSON object: a well-formed request that ends in the service (404 for the id,
            // 422 for the body, ...), never in a change to anyone's data.
            String path = SecuritySupport.fill(
                    route.template(),
                    variable -> variable.equals("board_id") ? "1" : SecuritySupport.unknownId(route.template()));
            Response response = SecuritySupport.call(key, route, path, "{}");
            String code = errorCode(response.asString());
            softly.assertThat(code)
                    .as("%s (%s): answered %d %s", route, path, response.statusCode(), response.asString())
                    .isNotIn("method_not_allowed", "insufficient_scope");
            softly.assertThat(message(response.asString()))
                    .as("%s (%s): not a routing refusal", route, path)
                    .doesNotStartWith("No such route");
        }
        softly.assertAll();
    }

    @Test
    void api9_undocumentedRoutesUnderTheApiAreTheGatewaysOwnNotFound() throws IOException {
        SoftAssertions softly = new SoftAssertions();
        String post = SecuritySupport.unknownId("/posts");
        String account = SecuritySupport.unknownId("/accounts");
        for (String target : List.of(
                "GET /api/v1/admin",
                "GET /api/v1/admin/workspaces",
                "GET /api/v1/internal/accounts/lookup",
                "POST /api/v1/internal/accounts/lookup",
                "GET /api/v1/internal/entitlements",
                "PUT /api/v1/internal/subscription",
                "POST /api/v1/internal/reservations",
                "GET /api/v1/internal/posts/" + post,
                "GET /api/v1/posts/" + post + "/targets",
                "POST /api/v1/posts/" + post + "/publish",
                "GET /api/v1/accounts/" + account + "/credentials",
                "GET /api/v1/accounts/" + account + "/token",
                "GET /api/v1/workspaces",
                "GET /api/v1/api-keys",
                "GET /api/v1/openapi.yaml",
                "GET /api/v1/posts/",
                // Dot segments resolve before routing: what they resolve to is looked up, never what they spell.
                "GET /api/v1/posts/../internal/accounts/lookup",
                "GET /api/v1/posts/%2e%2e/internal/accounts/lookup",
                "GET /api/v1/posts/" + post + "/../../internal/entitlements",
                // Encoded separators inside an id: one segment to the catalog, a path to whoever decodes it later.
                "GET /api/v1/posts/" + post + "%2F..%2F..%2Finternal%2Faccounts%2Flookup",
                "GET /api/v1/posts%2Finternal",
                "GET /api/v1/posts/" + post + "%5C..%5Cinternal",
                "GET /api/v1/posts/" + post + ";internal")) {
            RawHttp.Answer answer = send(target);
            assertGatewayError(softly, target, answer, 404, "not_found");
            softly.assertThat(message(answer.body()))
                    .as("%s: the gateway's routing refused it (body %s)", target, answer.body())
                    .startsWith(GATEWAY_NO_ROUTE);
        }
        softly.assertAll();
    }

    @Test
    void api9_otherMethodsOnDocumentedPathsAreNotAllowed() throws IOException {
        SoftAssertions softly = new SoftAssertions();
        String post = SecuritySupport.unknownId("/posts");
        for (String target : List.of(
                "TRACE /api/v1/posts",
                "OPTIONS /api/v1/posts",
                "TRACE /api/v1/posts/" + post,
                "OPTIONS /api/v1/profiles",
                "PUT /api/v1/posts/" + post,
                "PATCH /api/v1/posts/" + post,
                "PUT /api/v1/posts",
                "DELETE /api/v1/usage",
                "POST /api/v1/logs",
                "HEAD /api/v1/usage")) {
            RawHttp.Answer answer = send(target);
            if (target.startsWith("HEAD ")) {
                // A HEAD answer has no body to carry the envelope.
                softly.assertThat(answer.status()).as(target).isEqualTo(405);
                continue;
            }
            assertGatewayError(softly, target, answer, 405, "method_not_allowed");
            softly.assertThat(answer.header("allow"))
                    .as("%s: Allow names the documented methods", target)
                    .isNotBlank()
                    .doesNotContain("TRACE", "OPTIONS");
        }
        softly.assertAll();
    }

    @Test
    void api9_pathsOutsideTheApiAreNotFoundInTheEnvelope() throws IOException {
        SoftAssertions softly = new SoftAssertions();
        for (String target : List.of(
                "GET /api/v2/posts",
                "GET /api/v0/posts",
                "GET /api/posts",
                "GET /api",
                "GET /v1/posts",
                "GET /posts",
                "GET /internal/accounts/lookup",
                "GET /internal/entitlements",
                "GET /internal/x",
                "GET /admin",
                "GET /q/health/live",
                "GET /q/health/ready",
                "GET /q/health/started",
                "GET /q/metrics",
                "GET /q/health",
                "GET /q/health/well",
                "GET /q/dev-ui",
                "GET /q/dev",
                "GET /q/openapi",
                "GET /q/swagger-ui",
                "GET /q/info",
                "GET /q/%6detrics",
                "GET /api/v1/../../q/metrics",
                "GET /connect/x/../../q/health/ready",
                "GET /api/v1/../internal/accounts/lookup")) {
            RawHttp.Answer answer = send(target);
            assertGatewayError(softly, target, answer, 404, "not_found");
        }
        softly.assertAll();
    }

    /** {@code target} is "METHOD raw-path", sent byte for byte with the API9 key. */
    private static RawHttp.Answer send(String target) throws IOException {
        String[] parts = target.split(" ", 2);
        return RawHttp.exchange(RawHttp.head(parts[0], parts[1], key), null);
    }

    /** The spec's error envelope with this status and code, its request id the response's. */
    private static void assertGatewayError(
            SoftAssertions softly, String target, RawHttp.Answer answer, int status, String code) {
        softly.assertThat(answer.status())
                .as("%s: status (body %s)", target, answer.body())
                .isEqualTo(status);
        softly.assertThat(errorCode(answer.body())).as("%s: error.code", target).isEqualTo(code);
        softly.assertThat(message(answer.body()))
                .as("%s: error.message", target)
                .isNotBlank();
        String requestId = answer.header("x-request-id");
        softly.assertThat(requestId).as("%s: x-request-id", target).isNotBlank();
        softly.assertThat(field(answer.body(), "request_id"))
                .as("%s: request_id", target)
                .isEqualTo(requestId);
    }

    private static String errorCode(String body) {
        return field(body, "error.code");
    }

    private static String message(String body) {
        return field(body, "error.message");
    }

    private static String field(String body, String path) {
        try {
            String value = JsonPath.from(body).getString(path);
            return value == null ? "" : value;
        } catch (RuntimeException notJson) {
            return "(not JSON: " + body + ")";
        }
    }
}
