package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.DecoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/docs}: the API reference page and Swagger UI's files, public, free and counted per address like
 * the OpenAPI document, with the protections of the gateway's other pages and a policy that lets nothing load from
 * anywhere else.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
class ApiReferenceRouteTest {
    private static final String[] FILES = {
        "/api/v1/docs/swagger-ui-bundle.js",
        "/api/v1/docs/swagger-ui.css",
        "/api/v1/docs/api-reference.js",
        "/api/v1/docs/api-reference.css",
        "/api/v1/docs/favicon-32x32.png"
    };

    @Inject
    Pool pool;

    @Test
    void thePageIsServedWithoutACredentialWithThePagesProtections() {
        Response page = given().get("/api/v1/docs");
        page.then()
                .statusCode(200)
                .header("content-type", equalTo("text/html;charset=UTF-8"))
                .header("Content-Security-Policy", equalTo(ApiReferenceRoute.CONTENT_SECURITY_POLICY))
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer")
                .header("x-request-id", matchesPattern("^req_[a-f0-9]{24}$"))
                .header("X-RateLimit-Limit", "60")
                .header("X-RateLimit-Remaining", matchesPattern("^\\d+$"))
                .header("X-RateLimit-Reset", matchesPattern("^\\d{10}$"));
        assertThat(ApiReferenceRoute.CONTENT_SECURITY_POLICY)
                .startsWith("default-src 'none';")
                .doesNotContain("unsafe", "http", "*");
        // Every file the page loads is one of the gateway's own, by an absolute path below /api/v1/docs: no CDN.
        Matcher references = Pattern.compile("(?:src|href)=\"([^\"]*)\"").matcher(page.asString());
        int count = 0;
        while (references.find()) {
            assertThat(references.group(1)).startsWith("/api/v1/docs/");
            given().get(references.group(1)).then().statusCode(200);
            count++;
        }
        assertThat(count).isEqualTo(FILES.length);
        // Swagger UI is pointed at the served document.
        given().get("/api/v1/docs/api-reference.js")
                .then()
                .statusCode(200)
                .header("content-type", equalTo("text/javascript;charset=UTF-8"))
                .body(containsString("url: \"/api/v1/openapi.json\""));
    }

    @Test
    void swaggerUisFilesComeFromTheWebjarGzippedWhenAccepted() {
        for (String file : FILES) {
            given().get(file)
                    .then()
                    .statusCode(200)
                    .header("Content-Security-Policy", equalTo(ApiReferenceRoute.CONTENT_SECURITY_POLICY))
                    .header("X-Content-Type-Options", "nosniff")
                    .header("X-RateLimit-Remaining", matchesPattern("^\\d+$"));
        }
        Response plain = given().config(RestAssuredConfig.config()
                        .decoderConfig(DecoderConfig.decoderConfig().noContentDecoders()))
                .header("Accept-Encoding", "identity")
                .get("/api/v1/docs/swagger-ui-bundle.js");
        plain.then().statusCode(200).header("content-encoding", (String) null);
        assertThat(plain.asByteArray().length).isGreaterThan(1_000_000);
        Response gzipped = given().header("Accept-Encoding", "gzip").get("/api/v1/docs/swagger-ui-bundle.js");
        gzipped.then().statusCode(200).header("content-encoding", "gzip").header("vary", "accept-encoding");
        // Decoded by the client, the same script.
        assertThat(gzipped.asByteArray()).isEqualTo(plain.asByteArray());
    }

    @Test
    void onlyTheNamedFilesArePublic() {
        // Anything else below /api/v1/docs is an API path like any other: without a key, 401.
        for (String path : new String[] {
            "/api/v1/docs/index.html",
            "/api/v1/docs/swagger-initializer.js",
            "/api/v1/docs/oauth2-redirect.html",
            "/api/v1/docs/../docs/x"
        }) {
            given().get(path).then().statusCode(401).body("error.code", equalTo("authentication_failed"));
        }
        // Nor is the webjar reachable where Quarkus would serve a dependency's META-INF/resources.
        given().get("/webjars/swagger-ui/5.34.1/swagger-ui-bundle.js").then().statusCode(404);
        given().contentType(ContentType.JSON)
                .body("{}")
                .post("/api/v1/docs")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
    }

    @Test
    void fetchingThePageCountsInThePerAddressWindow() throws InterruptedException {
        // Early enough in a minute that the requests below share one window. That the window never refuses is the
        // OpenAPI document's (OpenApiDocumentRouteTest): the same RateLimitHeaders.countAnonymously serves both, and
        // 60 more requests here would only make this test slower and minute-boundary sensitive on a busy machine.
        int second = Instant.now().atOffset(ZoneOffset.UTC).getSecond();
        if (second > 50) {
            Thread.sleep((61 - second) * 1000L);
        }
        int before = remaining(given().get("/api/v1/openapi.json"));
        int afterPage = remaining(given().get("/api/v1/docs"));
        int afterScript = remaining(given().get("/api/v1/docs/swagger-ui-bundle.js"));
        assertThat(afterPage).isEqualTo(Math.max(0, before - 1));
        assertThat(afterScript).isEqualTo(Math.max(0, before - 2));
    }

    @Test
    void aKeySentAlongIsNeitherCheckedNorMetered() {
        String workspace = AdminApi.newWorkspace("API reference test");
        String key = AdminApi.newKeySecret(workspace, "test", "profiles:read");
        for (String path : new String[] {"/api/v1/docs", "/api/v1/docs/swagger-ui.css"}) {
            given().header("Authorization", "Bearer " + key)
                    .get(path)
                    .then()
                    .statusCode(200)
                    // The anonymous window's limit, not the workspace's: the key played no part.
                    .header("X-RateLimit-Limit", "60");
            given().header("Authorization", "Bearer not-a-key").get(path).then().statusCode(200);
        }
        Long metered = pool.preparedQuery(
                        "select coalesce(sum(used), 0) as used from api_request_counts where subject = $1")
                .execute(Tuple.of(workspace + ":test"))
                .map(rows -> rows.iterator().next().getLong("used"))
                .await()
                .atMost(Duration.ofSeconds(10));
        assertThat(metered).isZero();
    }

    private static int remaining(Response response) {
        response.then().statusCode(200);
        return Integer.parseInt(response.header("X-RateLimit-Remaining"));
    }
}
