package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class RequestLogTest {
    static final String ADMIN = AdminApi.ADMIN;

    private String workspace;
    private String key;
    private String keyId;

    @BeforeEach
    void newWorkspace() {
        workspace = AdminApi.newWorkspace("Logs");
        JsonPath created = AdminApi.newKey(workspace, "test");
        key = created.getString("data.secret");
        keyId = created.getString("data.id");
    }

    /** Logs are written in batches just after each answer; wait until {@code count} are visible. */
    private JsonPath logs(String query, int count) throws InterruptedException {
        JsonPath page = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            page = given().header("Authorization", "Bearer " + key)
                    .get("/api/v1/logs" + query)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            long others = page.<Map<String, Object>>getList("data").stream()
                    .filter(log -> !"/api/v1/logs".equals(log.get("path")))
                    .count();
            if (others >= count) {
                return page;
            }
            Thread.sleep(100);
        }
        return page;
    }

    @Test
    void everyRequestWithAKeyIsLoggedNewestFirstWithoutSecrets() throws Exception {
        String secretBody = "{\"name\":\"do-not-store-me\"}";
        String postId = given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.JSON)
                .body(secretBody)
                .post("/api/v1/profiles")
                .then()
                .statusCode(200)
                .extract()
                .header("x-request-id");
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/nowhere")
                .then()
                .statusCode(404);
        given().header("Authorization", "Bearer sk_test_" + "z".repeat(32))
                .get("/api/v1/profiles")
                .then()
                .statusCode(401);

        JsonPath page = logs("?path=/api/v1/", 2);
        // Reading the logs is itself a logged request; leave those reads out.
        List<Map<String, Object>> data = page.<Map<String, Object>>getList("data").stream()
                .filter(log -> !"/api/v1/logs".equals(log.get("path")))
                .toList();
        assertThat(data).hasSize(2);
        assertThat(data.get(0))
                .containsEntry("method", "GET")
                .containsEntry("path", "/api/v1/nowhere")
                .containsEntry("status", 404);
        assertThat(data.get(1))
                .containsEntry("id", postId)
                .containsEntry("method", "POST")
                .containsEntry("path", "/api/v1/profiles")
                .containsEntry("status", 200)
                .containsEntry("key_id", keyId)
                .containsEntry("mode", "test")
                .containsKeys("duration_ms", "created_at");
        assertThat(data.get(1).keySet())
                .containsExactlyInAnyOrder(
                        "id", "method", "path", "status", "duration_ms", "key_id", "mode", "created_at");
        assertThat(page.prettify()).doesNotContain("do-not-store-me").doesNotContain(key);
    }

    @Test
    void filtersByStatusMethodPathAndRequestId() throws Exception {
        String getId = given().header("Authorization", "Bearer " + key)
                .get("/api/v1/posts")
                .then()
                .statusCode(200)
                .extract()
                .header("x-request-id");
        given().header("Authorization", "Bearer " + key)
                .contentType(ContentType.JSON)
                .body("{}")
                .post("/api/v1/posts")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/posts?status=422")
                .then()
                .statusCode(422);
        logs("?path=/api/v1/posts", 3);

        assertThat(logs("?method=post", 1).getList("data.method")).containsExactly("POST");
        assertThat(logs("?status=422", 1).getList("data.status")).containsExactly(422);
        assertThat(logs("?request_id=" + getId, 1).getList("data.id")).containsExactly(getId);
        assertThat(logs("?path=/api/v1/profiles", 0).getList("data")).isEmpty();

        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/logs?status=abc")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("status"));
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/logs?method=TRACE")
                .then()
                .statusCode(400);
        given().header("Authorization", "Bearer " + key)
                .get("/api/v1/logs?path=posts")
                .then()
                .statusCode(400);
        // Text PostgreSQL cannot store (a NUL) is a bad parameter here too, not a server error.
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/logs?path=/%00")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("path"));
        // Only ASCII digits are a status: Arabic-Indic "400" and "+404" are not.
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/logs?status=%D9%A4%D9%A0%D9%A0")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("status"));
        given().header("Authorization", "Bearer " + key)
                .urlEncodingEnabled(false)
                .get("/api/v1/logs?status=%2B404")
                .then()
                .statusCode(400);
        // Parameter names are read ignoring case, as every other list reads them.
        assertThat(given().header("Authorization", "Bearer " + key)
                        .get("/api/v1/logs?LIMIT=1")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .hasSize(1);
    }

    @Test
    void pagesAreBoundToTheirFiltersAndTenant() throws Exception {
        for (int i = 0; i < 3; i++) {
            given().header("Authorization", "Bearer " + key)
                    .get("/api/v1/posts")
                    .then()
                    .statusCode(200);
        }
        // All three must be visible before a one-item page can promise a next one.
        logs("?path=/api/v1/posts", 3);
        String cursor = logs("?path=/api/v1/posts&limit=1", 1).getString("meta.next_cursor");
        assertThat(cursor).isNotNull();
        given().header("Authorization", "Bearer " + key)
                .queryParam("path", "/api/v1/posts")
                .queryParam("limit", 1)
                .queryParam("cursor", cursor)
                .get("/api/v1/logs")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + key)
                .queryParam("cursor", cursor)
                .get("/api/v1/logs")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));

        String liveKey = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .extract()
                .path("data.secret");
        given().header("Authorization", "Bearer " + liveKey)
                .queryParam("path", "/api/v1/posts")
                .get("/api/v1/logs")
                .then()
                .statusCode(200)
                .body("data.size()", equalTo(0));
    }

    @Test
    void readingLogsNeedsTheLogsScope() {
        String noLogs = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\",\"scopes\":[\"profiles:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .extract()
                .path("data.secret");
        given().header("Authorization", "Bearer " + noLogs)
                .get("/api/v1/logs")
                .then()
                .statusCode(403)
                .body("error.details.required_scope", equalTo("logs:read"));
    }
}
