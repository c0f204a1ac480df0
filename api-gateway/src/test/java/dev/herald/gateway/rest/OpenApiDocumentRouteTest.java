package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.gateway.AdminApi;
import dev.herald.openapi.OpenApiDocument;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/openapi.json} is public and free, and the answers the gateway gives on its own (before any
 * service is involved) are the ones the document promises.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
class OpenApiDocumentRouteTest {

    private final OpenApiDocument document = OpenApiDocument.fromClasspath(OpenApiDocumentRoute.RESOURCE);

    @Test
    void theDocumentIsServedWithoutACredential() {
        Response response = given().get("/api/v1/openapi.json");
        response.then()
                .statusCode(200)
                .contentType(ContentType.JSON)
                .header("content-type", equalTo("application/json"))
                .header("x-request-id", matchesPattern("^req_[a-f0-9]{24}$"))
                // Counted in the per-address window of requests without a credential, like a 401.
                .header("X-RateLimit-Limit", "60")
                .header("X-RateLimit-Remaining", matchesPattern("^\\d+$"))
                .header("X-RateLimit-Reset", matchesPattern("^\\d{10}$"))
                .body("openapi", equalTo("3.1.0"));
        assertThat(response.asString()).isEqualTo(document.text());
    }

    @Test
    void fetchingItCountsInThePerAddressWindowWithoutEverBeingRefused() throws InterruptedException {
        // Early enough in a minute that the 67 requests below share one window.
        int second = Instant.now().atOffset(ZoneOffset.UTC).getSecond();
        if (second > 50) {
            Thread.sleep((61 - second) * 1000L);
        }
        boolean counted = countsWithinOneWindow();
        if (!counted) {
            // A busy machine took them past the minute: a second round starts at the new minute's beginning.
            counted = countsWithinOneWindow();
        }
        assertThat(counted).as("67 requests counted within one minute's window").isTrue();
    }

    /** The requests' counting, unless their window ended before the last of them (nothing asserted then: false). */
    private static boolean countsWithinOneWindow() {
        Response first =
                given().get("/api/v1/profiles").then().statusCode(401).extract().response();
        int before = Integer.parseInt(first.header("X-RateLimit-Remaining"));
        int last = before;
        for (int i = 0; i < 5; i++) {
            last = Integer.parseInt(given().get("/api/v1/openapi.json")
                    .then()
                    .statusCode(200)
                    .extract()
                    .header("X-RateLimit-Remaining"));
        }
        assertThat(last).isEqualTo(Math.max(0, before - 5));
        // The window only reports: past its limit, the document is still served.
        for (int i = 0; i < 60; i++) {
            given().get("/api/v1/openapi.json").then().statusCode(200);
        }
        Response end = given().get("/api/v1/openapi.json")
                .then()
                .statusCode(200)
                .extract()
                .response();
        if (!end.header("X-RateLimit-Reset").equals(first.header("X-RateLimit-Reset"))) {
            return false;
        }
        assertThat(end.header("X-RateLimit-Remaining")).isEqualTo("0");
        return true;
    }

    @Test
    void onlyTheDocumentsGetIsPublic() {
        given().contentType(ContentType.JSON)
                .body("{}")
                .post("/api/v1/openapi.json")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
        given().get("/api/v1/openapi.yaml").then().statusCode(401);
    }

    @Test
    void theGatewaysOwnRefusalsAreTheDocumentsAnswers() {
        Response anonymous = given().get("/api/v1/profiles");
        anonymous.then().statusCode(401);
        assertConforms(anonymous, "GET", "/profiles", 401);

        String workspace = AdminApi.newWorkspace("OpenAPI test");
        String key = AdminApi.newKeySecret(workspace, "test", "profiles:read", "profiles:write");

        Response noScope = given().header("Authorization", "Bearer " + key).get("/api/v1/posts");
        noScope.then().statusCode(403).body("error.details.required_scope", equalTo("posts:read"));
        assertConforms(noScope, "GET", "/posts", 403);

        Response notJson = given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.TEXT)
                .body("name=Acme")
                .patch("/api/v1/profiles/prf_0123456789abcdef01234567");
        notJson.then().statusCode(415);
        assertConforms(notJson, "PATCH", "/profiles/{id}", 415);
    }

    private void assertConforms(Response response, String method, String template, int status) {
        JsonNode schema = document.responseSchema(method, template, status);
        assertThat(OpenApiDocument.problems(document.validator(schema), parse(response.asString())))
                .as(method + " " + template + " " + status)
                .isEmpty();
        for (String header :
                new String[] {"x-request-id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}) {
            assertThat(response.header(header)).as(header).isNotNull();
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
