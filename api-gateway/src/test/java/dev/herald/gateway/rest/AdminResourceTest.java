package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.gateway.AdminApi;
import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class AdminResourceTest {
    static final String ADMIN = AdminApi.ADMIN;

    @Test
    void theAdminApiNeedsTheAdminToken() {
        given().contentType(ContentType.JSON)
                .body("{\"name\":\"x\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
        given().header("Authorization", "Bearer wrong")
                .contentType(ContentType.JSON)
                .body("{\"name\":\"x\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(401);
    }

    @Test
    void createsWorkspacesAndKeysShowingTheSecretOnce() {
        String workspace = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"name\":\" Acme \"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^ws_[a-f0-9]{24}$"))
                .body("data.name", equalTo("Acme"))
                .extract()
                .path("data.id");
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\",\"scopes\":[\"profiles:read\",\"posts:read\"],\"name\":\"CI\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^key_[a-f0-9]{24}$"))
                .body("data.secret", matchesPattern("^sk_live_[A-Za-z0-9]{32}$"))
                .body("data.mode", equalTo("live"))
                .body("data.scopes", hasSize(2))
                .body("data.scopes", hasItems("profiles:read", "posts:read"))
                .body("data.revoked_at", nullValue());
    }

    @Test
    void badKeyRequestsAreValidationErrors() {
        String workspace = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Acme\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"prod\",\"scopes\":[\"root\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(2));
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/ws_000000000000000000000000/api-keys")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        given().header("Authorization", ADMIN)
                .delete("/admin/v1/api-keys/key_000000000000000000000000")
                .then()
                .statusCode(404);
    }

    @Test
    void aWorkspaceCreatesAtMostTwentyKeysAnHourPerMode() {
        String workspace = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Key minter\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        for (int i = 0; i < 20; i++) {
            given().header("Authorization", ADMIN)
                    .contentType(ContentType.JSON)
                    .body("{\"mode\":\"live\"}")
                    .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                    .then()
                    .statusCode(201);
        }

        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(429)
                .header("Retry-After", matchesPattern("^[0-9]{1,4}$"))
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.details.limit", equalTo(20));
        given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201);
    }
}
