package dev.herald.gateway;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;

/**
 * The admin API as the gateway's tests use it to set up a tenant: a workspace and its API keys, each call
 * expected to succeed. Tests of the admin API itself (AdminResourceTest) make their calls directly.
 */
public final class AdminApi {
    /** The admin token of the test profile ({@code %test.herald.admin.token}). */
    public static final String ADMIN = "Bearer test-admin-token-0123456789";

    private AdminApi() {}

    /** A request carrying the admin token and a JSON body type. */
    public static RequestSpecification admin() {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON);
    }

    /** A new workspace's id. */
    public static String newWorkspace(String name) {
        return admin().body(Map.of("name", name))
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    /** A new API key of {@code workspace} in {@code mode} with {@code scopes} (none given: every scope), as created. */
    public static JsonPath newKey(String workspace, String mode, String... scopes) {
        Map<String, Object> body =
                scopes.length == 0 ? Map.of("mode", mode) : Map.of("mode", mode, "scopes", List.of(scopes));
        return admin().body(body)
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    /** The secret of a new API key of {@code workspace} (see {@link #newKey}). */
    public static String newKeySecret(String workspace, String mode, String... scopes) {
        return newKey(workspace, mode, scopes).getString("data.secret");
    }
}
