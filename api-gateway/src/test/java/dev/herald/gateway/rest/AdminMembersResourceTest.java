package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

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
class AdminMembersResourceTest {

    @Test
    void membersAreNamedByEmailOrSubjectWithAKnownRole() {
        String workspace = AdminApi.newWorkspace("Acme");
        AdminApi.admin()
                .body("{\"subject\":\"00u1abc\",\"role\":\"viewer\"}")
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .body("data.subject", equalTo("00u1abc"))
                .body("data.email", equalTo(null));
        AdminApi.admin()
                .get("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data.role", hasItem("viewer"));
    }

    @Test
    void badMembersAreValidationErrorsAndNothingIsWritten() {
        String workspace = AdminApi.newWorkspace("Acme");
        String members = "/admin/v1/workspaces/" + workspace + "/members";
        AdminApi.admin()
                .body("{\"role\":\"owner\"}")
                .post(members)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors[0].field", equalTo("email"));
        AdminApi.admin()
                .body("{\"email\":\"not-an-address\",\"role\":\"admin\",\"workspace_id\":\"ws_x\"}")
                .post(members)
                .then()
                .statusCode(422)
                .body("error.details.errors.field", org.hamcrest.Matchers.hasItems("email", "role", "workspace_id"));
        AdminApi.admin()
                .body("{\"email\":42,\"role\":\"owner\"}")
                .post(members)
                .then()
                .statusCode(422);
        AdminApi.admin().body("not json").post(members).then().statusCode(400);
        AdminApi.admin().get(members).then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void theSameEmailTwiceIsAConflict() {
        String workspace = AdminApi.newWorkspace("Acme");
        String members = "/admin/v1/workspaces/" + workspace + "/members";
        AdminApi.admin()
                .body("{\"email\":\"admin-api-dup@example.org\",\"role\":\"developer\"}")
                .post(members)
                .then()
                .statusCode(201);
        AdminApi.admin()
                .body("{\"email\":\"ADMIN-API-DUP@example.org\",\"role\":\"owner\"}")
                .post(members)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"));
    }

    @Test
    void anotherWorkspacesMemberIsNotFoundAndTheLastOwnerStays() {
        String mine = AdminApi.newWorkspace("Acme");
        String theirs = AdminApi.newWorkspace("Acme");
        String owner = AdminApi.admin()
                .body("{\"email\":\"admin-api-owner@example.org\",\"role\":\"owner\"}")
                .post("/admin/v1/workspaces/" + theirs + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        AdminApi.admin()
                .delete("/admin/v1/workspaces/" + mine + "/members/" + owner)
                .then()
                .statusCode(404);
        AdminApi.admin()
                .post("/admin/v1/workspaces/" + mine + "/members/" + owner + "/sign-in-links")
                .then()
                .statusCode(404);
        AdminApi.admin()
                .body("{\"role\":\"viewer\"}")
                .patch("/admin/v1/workspaces/" + theirs + "/members/" + owner)
                .then()
                .statusCode(409)
                .body("error.message", containsString("at least one owner"));
        AdminApi.admin()
                .delete("/admin/v1/workspaces/" + theirs + "/members/" + owner)
                .then()
                .statusCode(409);
        AdminApi.admin()
                .get("/admin/v1/workspaces/ws_000000000000000000000404/members")
                .then()
                .statusCode(404);
    }

    @Test
    void theMembersApiNeedsTheAdminToken() {
        given().contentType(ContentType.JSON)
                .get("/admin/v1/workspaces/" + AdminApi.newWorkspace("Acme") + "/members")
                .then()
                .statusCode(401);
    }
}
