package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /mcp} goes to mcp-server (EchoUpstream here) only with a valid key, which goes along; it is never metered. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class McpRouteTest {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

    private String key;

    @BeforeEach
    void newKey() {
        String workspace = AdminApi.newWorkspace("MCP");
        key = AdminApi.newKeySecret(workspace, "test", "posts:read");
    }

    private RequestSpecification mcp(String authorization) {
        return given().header("Authorization", authorization)
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", "session-1")
                .header("Mcp-Protocol-Version", "2025-06-18")
                .header("Cookie", "dashboard=1")
                .contentType(ContentType.JSON)
                .body(INITIALIZE);
    }

    @Test
    void forwardsTheCallersKeyAndTheTransportsHeadersToMcpServer() {
        mcp("Bearer " + key)
                .post("/mcp")
                .then()
                .statusCode(200)
                .header("x-upstream", "echo")
                .header("X-RateLimit-Remaining", notNullValue())
                .body("data.method", equalTo("POST"))
                .body("data.path", equalTo("/mcp"))
                .body("data.body_length", equalTo(INITIALIZE.length()));
        // mcp-server calls the public API with the caller's own key, so the key itself goes along.
        assertThat(EchoUpstream.lastHeaders)
                .containsEntry("authorization", "Bearer " + key)
                .containsEntry("mcp-session-id", "session-1")
                .containsEntry("mcp-protocol-version", "2025-06-18")
                .containsEntry("accept", "application/json, text/event-stream")
                .doesNotContainKey("cookie");
    }

    @Test
    void aRequestWithoutAValidKeyNeverReachesMcpServer() {
        EchoUpstream.lastHeaders.clear();
        given().contentType(ContentType.JSON)
                .body(INITIALIZE)
                .post("/mcp")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
        mcp("Bearer hk_test_not_a_key")
                .post("/mcp")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
        assertThat(EchoUpstream.lastHeaders).isEmpty();
    }

    @Test
    void mcpAnswersNoEventStreamToAGet() {
        given().header("Authorization", "Bearer " + key)
                .get("/mcp")
                .then()
                .statusCode(405)
                .header("Allow", "DELETE, POST")
                .body("error.code", equalTo("method_not_allowed"));
    }

    @Test
    void anMcpRequestIsNotMeteredItselfSinceEachToolCallIs() {
        // GET /usage needs no scope; its answer counts the API requests of the month, itself included.
        long before = given().header("Authorization", "Bearer " + key)
                .get("/api/v1/usage")
                .then()
                .extract()
                .jsonPath()
                .getLong("data.api_requests.used");
        mcp("Bearer " + key).post("/mcp").then().statusCode(200);
        mcp("Bearer " + key).post("/mcp").then().statusCode(200);
        long after = given().header("Authorization", "Bearer " + key)
                .get("/api/v1/usage")
                .then()
                .extract()
                .jsonPath()
                .getLong("data.api_requests.used");
        assertThat(after).isEqualTo(before + 1);
    }
}
