package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import dev.herald.common.tracing.TraceParents;
import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class ApiGatewayRoutesTest {
    static final String ADMIN = AdminApi.ADMIN;

    @Inject
    InternalTokens tokens;

    /** The management interface (its probes and metrics), at its root path {@code /q}. */
    @TestHTTPResource(management = true)
    URL management;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = AdminApi.newWorkspace("Gateway test");
    }

    private String key(String mode, String... scopes) {
        return AdminApi.newKeySecret(workspace, mode, scopes);
    }

    @Test
    void forwardsWithAnInternalTokenInsteadOfTheCustomersKey() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .header("Cookie", "session=1")
                .header("Idempotency-Key", "k-1")
                .header("x-request-id", "chosen-by-client")
                .queryParam("q", "a b")
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .header("x-upstream", "echo")
                .header("x-request-id", matchesPattern("^req_[a-f0-9]{24}$"))
                .body("data.method", equalTo("GET"))
                .body("data.path", equalTo("/profiles"))
                .body("data.query", matchesPattern("^q=a(\\+|%20)b$"));
        String forwarded = EchoUpstream.lastHeaders.get("authorization");
        assertThat(forwarded).startsWith("Bearer ").doesNotContain(key);
        var caller = tokens.verifier().verify(forwarded.substring(7)).orElseThrow();
        assertThat(caller.workspaceId()).isEqualTo(workspace);
        assertThat(caller.mode()).isEqualTo(Mode.TEST);
        assertThat(caller.hasScope("profiles:read")).isTrue();
        assertThat(EchoUpstream.lastHeaders).doesNotContainKey("cookie").containsEntry("idempotency-key", "k-1");
        assertThat(EchoUpstream.lastHeaders.get("x-request-id")).matches("^req_[a-f0-9]{24}$");
    }

    @Test
    void theServiceContinuesTheRequestsTraceWhoseIdTheCustomerGetsInXTraceId() {
        String key = key("test");
        String traceId = given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .header("x-trace-id", matchesPattern("^[0-9a-f]{32}$"))
                .extract()
                .header("x-trace-id");
        assertThat(TraceParents.traceId(EchoUpstream.lastHeaders.get("traceparent")))
                .as("the forwarded traceparent")
                .isEqualTo(traceId);

        // An error the gateway answers itself names its trace too.
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/no-such-route")
                .then()
                .statusCode(404)
                .header("x-trace-id", matchesPattern("^[0-9a-f]{32}$"));
    }

    @Test
    void aClientsTraceparentContinuesItsTraceButCannotAskForItToBeRecorded() {
        String key = key("test");
        String clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        given().header("Authorization", "Bearer " + key)
                .header("traceparent", "00-" + clientTrace + "-00f067aa0ba902b7-01")
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .header("x-trace-id", clientTrace);
        // The gateway's own span is the service's parent, and its sampler (ratio 0 here) decides, not the client's
        // flag.
        assertThat(EchoUpstream.lastHeaders.get("traceparent"))
                .startsWith("00-" + clientTrace + "-")
                .doesNotContain("00f067aa0ba902b7")
                .endsWith("-00");
    }

    @Test
    void aStreamedAnswerWithoutALengthReachesTheCustomerWhole() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .queryParam("chunked", "true")
                .get("/api/v1/posts")
                .then()
                .statusCode(200)
                .header("x-upstream", "echo")
                .body("data.path", equalTo("/posts"))
                .body("data.query", equalTo("chunked=true"));
    }

    @Test
    void everyAnswerCarriesRequestIdAndRateLimitHeaders() {
        String key = key("live");
        for (Response response : List.of(
                given().header("Authorization", "Bearer " + key).get("/api/v1/profiles"),
                given().header("Authorization", "Bearer " + key).get("/api/v1/nowhere"),
                given().get("/api/v1/profiles"))) {
            response.then()
                    .header("x-request-id", notNullValue())
                    // Answers are per tenant and may hold a secret shown once (a webhook's, a connect link): never
                    // cached.
                    .header("Cache-Control", "no-store")
                    .header("X-RateLimit-Limit", notNullValue())
                    .header("X-RateLimit-Remaining", notNullValue())
                    .header("X-RateLimit-Reset", notNullValue());
            long reset = Long.parseLong(response.header("X-RateLimit-Reset"));
            assertThat(reset % 60).isZero();
            assertThat(reset)
                    .isGreaterThan(Instant.now().getEpochSecond() - 1)
                    .isLessThanOrEqualTo(Instant.now().getEpochSecond() + 60);
        }
    }

    @Test
    void theWindowCountsDownPerWorkspaceAndModeAcrossKeys() {
        String first = key("test");
        String second = key("test");
        int before = Integer.parseInt(given().header("Authorization", "Bearer " + first)
                .get("/api/v1/profiles")
                .header("X-RateLimit-Remaining"));
        int after = Integer.parseInt(given().header("Authorization", "Bearer " + second)
                .get("/api/v1/profiles")
                .header("X-RateLimit-Remaining"));
        int limit = Integer.parseInt(given().header("Authorization", "Bearer " + second)
                .get("/api/v1/profiles")
                .header("X-RateLimit-Limit"));
        assertThat(limit).isEqualTo(30);
        // Both requests can straddle a minute boundary; then the second window starts fresh.
        assertThat(after).isIn(before - 1, limit - 1);
    }

    @Test
    void missingMalformedUnknownAndRevokedKeysAreRefused() throws InterruptedException {
        given().get("/api/v1/profiles")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"))
                .body("request_id", matchesPattern("^req_.*"))
                .header("WWW-Authenticate", "Bearer realm=\"herald\"");
        given().header("Authorization", "Basic abc")
                .get("/api/v1/profiles")
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", "Bearer realm=\"herald\"");
        given().header("Authorization", "Bearer sk_test_" + "A".repeat(32))
                .get("/api/v1/profiles")
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", "Bearer realm=\"herald\", error=\"invalid_token\"");
        var created = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String key = created.getString("data.secret");
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        // A live key's text with the test prefix is not the same key.
        given().header("Authorization", "Bearer " + key.replace("sk_test_", "sk_live_"))
                .get("/api/v1/profiles")
                .then()
                .statusCode(401);

        given().header("Authorization", ADMIN)
                .delete("/admin/v1/api-keys/" + created.getString("data.id"))
                .then()
                .statusCode(200)
                .body("data.revoked_at", notNullValue())
                .body("data.secret", nullValue());
        // Keys are remembered for a second, but the replica that revoked one forgets it at once: the very next
        // request is refused, although the key was used (and remembered) a moment ago.
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profiles")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
    }

    @Test
    void aMatrixParameterOnAnIdIsNoRoute() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles/prf_1;x=1")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
    }

    @Test
    void anEncodedSlashOrBackslashInAnIdIsNoRouteAndNeverForwarded() {
        String key = key("test");
        for (String path : List.of(
                "/api/v1/profiles/prf_1%2F..%2F..%2Finternal%2Fentitlements",
                "/api/v1/profiles/prf_1%2f", "/api/v1/profiles/prf_1%5C..%5Cinternal")) {
            given().header("Authorization", "Bearer " + key)
                    .urlEncodingEnabled(false)
                    .get(path)
                    .then()
                    .statusCode(404)
                    .header("x-upstream", nullValue())
                    .body("error.code", equalTo("not_found"));
        }
    }

    @Test
    void requestsNoRouteNamesAreMeasuredUnderABoundedNameNotTheirPath() throws Exception {
        String marker = "uniq" + System.nanoTime();
        // Sent as is: the dot segments resolve to /q/health, which no gateway route names.
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.getOutputStream()
                    .write(("GET /connect/" + marker
                                    + "/../../q/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            // Nor is health or metrics served to a path that climbs out of a public prefix.
            assertThat(answer).startsWith("HTTP/1.1 404");
        }
        assertThat(given().baseUri("http://" + management.getHost())
                        .port(management.getPort())
                        .get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .doesNotContain(marker);
        assertThat(MetricsRouteNames.boundedName("/q/health")).isEqualTo("/q/*");
        assertThat(MetricsRouteNames.boundedName("/api/v1/anything/at/all")).isEqualTo("/api/v1/*");
        assertThat(MetricsRouteNames.boundedName("/connectx")).isEqualTo("/*");
    }

    @Test
    void theApiAnswersJsonWhateverTheClientAccepts() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .header("Accept", "text/html")
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .contentType(containsString("application/json"));
        // Not negotiated by the service: it never sees the header, so it cannot answer 406.
        assertThat(EchoUpstream.lastHeaders).doesNotContainKey("accept");
    }

    @Test
    void twoAuthorizationHeadersAreRefusedWhicheverComesFirst() {
        String testKey = key("test");
        String liveKey = key("live");
        given().header("Authorization", "Bearer " + testKey)
                .header("Authorization", "Bearer " + liveKey)
                .get("/api/v1/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.message", equalTo("Send one Authorization header, not several."))
                .header("X-RateLimit-Limit", notNullValue());
        given().header("Authorization", "Bearer junk")
                .header("Authorization", "Bearer " + testKey)
                .get("/api/v1/profiles")
                .then()
                .statusCode(400);
    }

    /** accounts-service is down here: a 503 shows the request passed the scope check and went to it. */
    @Test
    void brandingIsReadWithAccountsReadAndSetOrDeletedWithAccountsWriteAtAccountsService() {
        String readOnly = key("live", "accounts:read");
        given().header("Authorization", "Bearer " + readOnly)
                .get("/api/v1/branding")
                .then()
                .statusCode(503)
                .body("error.code", equalTo("service_unavailable"));
        for (String method : List.of("PUT", "DELETE")) {
            given().header("Authorization", "Bearer " + readOnly)
                    .contentType(ContentType.JSON)
                    .body("{}")
                    .request(method, "/api/v1/branding")
                    .then()
                    .statusCode(403)
                    .body("error.details.required_scope", equalTo("accounts:write"));
        }
        String writer = key("live", "accounts:write");
        given().header("Authorization", "Bearer " + writer)
                .contentType(ContentType.JSON)
                .body("{\"display_name\":\"Acme\"}")
                .put("/api/v1/branding")
                .then()
                .statusCode(503);
        given().header("Authorization", "Bearer " + writer)
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/api/v1/branding")
                .then()
                .statusCode(405)
                .header("Allow", containsString("PUT"));
    }

    @Test
    void aKeyWithoutTheRoutesScopeIsForbidden() {
        String readOnly = key("test", "profiles:read");
        given().header("Authorization", "Bearer " + readOnly)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"x\"}")
                .post("/api/v1/profiles")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("insufficient_scope"))
                .body("error.message", equalTo("This API key lacks the profiles:write scope."))
                .body("error.details.required_scope", equalTo("profiles:write"))
                .header(
                        "WWW-Authenticate",
                        "Bearer realm=\"herald\", error=\"insufficient_scope\", scope=\"profiles:write\"");
        given().header("Authorization", "Bearer " + readOnly)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        given().header("Authorization", "bearer " + readOnly)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + readOnly)
                .get("/api/v1/usage")
                .then()
                .statusCode(200);
    }

    @Test
    void aRepeatedQueryParameterIsRefusedBeforeAnyServiceGuessesWhichValueCounts() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles?limit=1&q=a&limit=100")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("limit"))
                .body(
                        "error.message",
                        equalTo("The query parameter limit is given more than once; send each parameter once."));
        // Encoded names are the same parameter.
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles?limit=1&l%69mit=2")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        // The services read names ignoring case and split on ';' too (Vert.x), so these are repeats as well.
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles?limit=1&LIMIT=2")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("LIMIT"));
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles?limit=1;limit=2")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/profiles?limit=1&q=a&&")
                .then()
                .statusCode(200);
    }

    @Test
    void unknownRoutesAreNotFoundAndWrongMethodsNotAllowed() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profilez")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/profiles/prf_1/extra")
                .then()
                .statusCode(404);
        given().header("Authorization", "Bearer " + key)
                .put("/api/v1/profiles/prf_1")
                .then()
                .statusCode(405)
                .header("allow", "DELETE, GET, PATCH")
                .body("error.code", equalTo("method_not_allowed"));
    }

    @Test
    void bodiesMustBeJsonAndAtMostOneMebibyte() {
        String key = key("test");
        given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.TEXT)
                .body("name=Acme")
                .post("/api/v1/profiles")
                .then()
                .statusCode(415)
                .body("error.code", equalTo("unsupported_media_type"))
                .header("X-RateLimit-Limit", notNullValue());
        String big = "{\"name\":\"" + "a".repeat(2 * 1024 * 1024) + "\"}";
        given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.JSON)
                .body(big)
                .post("/api/v1/profiles")
                .then()
                .statusCode(413)
                .body("error.code", equalTo("payload_too_large"))
                .header("x-request-id", notNullValue());
        given().header("Authorization", "Bearer " + key)
                .contentType("application/json; charset=utf-8")
                .body("{\"name\":\"ok\"}")
                .post("/api/v1/profiles")
                .then()
                .statusCode(200)
                .body("data.body_length", equalTo(13));
    }

    @Test
    void aServiceThatIsDownIsUnavailableNotAHang() {
        String key = key("test");
        long started = System.nanoTime();
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/accounts")
                .then()
                .statusCode(503)
                .body("error.code", equalTo("service_unavailable"))
                .header("X-RateLimit-Limit", notNullValue());
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
    }
}
