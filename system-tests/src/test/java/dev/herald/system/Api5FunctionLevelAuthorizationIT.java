package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.SecuritySupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.SecuritySupport.Route;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * OWASP API5:2023, broken function level authorization: the scope matrix. For every scope, a key holding only
 * that scope calls every route of the gateway's catalog; it gets past the gateway exactly when the route's scope
 * is that scope (or the route needs none), and otherwise {@code 403 insufficient_scope} naming the required scope.
 * The admin API (the dashboard's back end) is a different function altogether: API keys never open it.
 */
class Api5FunctionLevelAuthorizationIT {
    private static final List<Route> CATALOG = SecuritySupport.catalog();

    @Test
    void api5_everyRouteIsAllowedExactlyForItsCatalogScope() throws Exception {
        // Scopes in parallel (each is independent), routes in order; every failure of every pair is reported.
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<List<AssertionError>>> results = new ArrayList<>();
        for (String scope : SecuritySupport.SCOPES) {
            results.add(pool.submit(() -> scopeMatrixRow(scope)));
        }
        List<String> failures = new ArrayList<>();
        for (Future<List<AssertionError>> result : results) {
            result.get(2, TimeUnit.MINUTES).forEach(error -> failures.add(error.getMessage()));
        }
        pool.shutdown();
        assertThat(failures)
                .as("route x scope pairs that disagree with the catalog")
                .isEmpty();
    }

    /** A key with only {@code scope} on every route: let through exactly where the catalog says so. */
    private static List<AssertionError> scopeMatrixRow(String scope) {
        SoftAssertions softly = new SoftAssertions();
        // One workspace per scope: each key's requests have a rate window of their own.
        String key = SecuritySupport.scopedTestKey("API5 " + scope, scope);
        for (Route route : CATALOG) {
            // Unknown ids and empty bodies: an allowed call ends in the service (404, 400, 422, ...), never in a
            // change to anyone's data.
            String path = SecuritySupport.fill(
                    route.template(),
                    variable -> variable.equals("board_id") ? "1" : SecuritySupport.unknownId(route.template()));
            Response response = SecuritySupport.call(key, route, path, "{}");
            String what = "a key with only " + scope + " on " + route;
            if (route.scope() == null || route.scope().equals(scope)) {
                softly.assertThat(response.statusCode())
                        .as(what + " is let through (" + response.asString() + ")")
                        .isNotIn(401, 403)
                        .isLessThan(500);
            } else {
                assertError(softly, what, response, 403, "insufficient_scope");
                softly.assertThat(response.jsonPath().getString("error.details.required_scope"))
                        .as(what + ": required_scope")
                        .isEqualTo(route.scope());
            }
        }
        return softly.assertionErrorsCollected();
    }

    @Test
    void api5_theAdminApiRefusesApiKeysAndAccessTokens() {
        String workspace = RunningSuite.newWorkspace("API5 admin");
        var created = RunningSuite.admin()
                .body("{\"mode\":\"live\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String key = created.getString("data.secret");
        String keyId = created.getString("data.id");
        String client = RunningSuite.admin()
                .body("{\"mode\":\"test\",\"scopes\":[\"profiles:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/oauth-clients")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        var credentials = RunningSuite.admin()
                .body("{\"mode\":\"live\",\"scopes\":[\"profiles:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/oauth-clients")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String token = RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .auth()
                .preemptive()
                .basic(credentials.getString("data.client_id"), credentials.getString("data.client_secret"))
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");

        Map<String, String> operations = new java.util.LinkedHashMap<>();
        operations.put("POST /admin/v1/workspaces", "{\"name\":\"Mine now\"}");
        operations.put("POST /admin/v1/workspaces/" + workspace + "/api-keys", "{\"mode\":\"live\"}");
        operations.put("DELETE /admin/v1/api-keys/" + keyId, "");
        operations.put("POST /admin/v1/workspaces/" + workspace + "/oauth-clients", "{\"mode\":\"live\"}");
        operations.put("DELETE /admin/v1/oauth-clients/" + client, "");
        operations.put(
                "PUT /admin/v1/workspaces/" + workspace + "/plan",
                "{\"mode\":\"live\",\"plan\":\"scale\",\"plan_source\":\"comp\"}");
        SoftAssertions softly = new SoftAssertions();
        for (String credential : List.of(key, token, RunningSuite.get().demoLiveKey())) {
            operations.forEach((operation, body) -> {
                String[] parts = operation.split(" ", 2);
                var request = RestAssured.given()
                        .baseUri(RunningSuite.get().gatewayUrl())
                        .header("Authorization", "Bearer " + credential);
                if (!body.isEmpty()) {
                    request = request.contentType(ContentType.JSON).body(body);
                }
                Response response = request.request(parts[0], parts[1]);
                softly.assertThat(response.statusCode())
                        .as(operation + " with a customer credential")
                        .isEqualTo(401);
                softly.assertThat(response.jsonPath().getString("error.code"))
                        .as(operation + ": error.code")
                        .isEqualTo("authentication_failed");
            });
        }
        softly.assertAll();
        // Nothing happened: the key is not revoked (it tried to revoke itself) and the plan is still the free one.
        as(key).get("/usage").then().statusCode(200).body("data.plan", org.hamcrest.Matchers.equalTo("free"));
        as(key).get("/profiles").then().statusCode(200).header("X-RateLimit-Limit", "30");
    }
}
