package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class AdminMembersResourceTest {

    private static RequestSpecification admin() {
        return given().header("Authorization", DashboardVisitor.ADMIN).contentType(ContentType.JSON);
    }

    private static String newWorkspace() {
        return admin().body("{\"name\":\"Acme\"}")
                .post("/admin/v1/workspaces")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    @Test
    void membersAreNamedByEmailOrSubjectWithAKnownRole() {
        String workspace = newWorkspace();
        admin().body("{\"subject\":\"00u1abc\",\"role\":\"viewer\"}")
                .post("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(201)
                .body("data.subject", equalTo("00u1abc"))
                .body("data.email", equalTo(null));
        admin().get("/admin/v1/workspaces/" + workspace + "/members")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data.role", hasItem("viewer"));
    }

    @Test
    void badMembersAreValidationErrorsAndNothingIsWritten() {
        String workspace = newWorkspace();
        String members = "/admin/v1/workspaces/" + workspace + "/members";
        admin().body("{\"role\":\"owner\"}")
                .post(members)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors[0].field", equalTo("email"));
        admin().body("{\"email\":\"not-an-address\",\"role\":\"admin\",\"workspace_id\":\"ws_x\"}")
                .post(members)
                .then()
                .statusCode(422)
                .body("error.details.errors.field", org.hamcrest.Matchers.hasItems("email", "role", "workspace_id"));
        admin().body("{\"email\":42,\"role\":\"owner\"}").post(members).then().statusCode(422);
        admin().body("not json").post(members).then().statusCode(400);
        admin().get(members).then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void theSameEmailTwiceIsAConflict() {
        String workspace = newWorkspace();
        String members = "/admin/v1/workspaces/" + workspace + "/members";
        admin().body("{\"email\":\"admin-api-dup@example.org\",\"role\":\"developer\"}")
                .post(members)
                .then()
                .statusCode(201);
        admin().body("{\"email\":\"ADMIN-API-DUP@example.org\",\"role\":\"owner\"}")
                .post(members)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"));
    }

    @Test
    void anotherWorkspacesMemberIsNotFoundAndTheLastOwnerStays() {
        String mine = newWorkspace();
        String theirs = newWorkspace();
        String owner = admin().body("{\"email\":\"admin-api-owner@example.org\",\"role\":\"owner\"}")
                .post("/admin/v1/workspaces/" + theirs + "/members")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        admin().delete("/admin/v1/workspaces/" + mine + "/members/" + owner)
                .then()
                .statusCode(404);
        admin().post("/admin/v1/workspaces/" + mine + "/members/" + owner + "/sign-in-links")
                .then()
                .statusCode(404);
        admin().body("{\"role\":\"viewer\"}")
                .patch("/admin/v1/workspaces/" + theirs + "/members/" + owner)
                .then()
                .statusCode(409)
                .body("error.message", containsString("at least one owner"));
        admin().delete("/admin/v1/workspaces/" + theirs + "/members/" + owner)
                .then()
                .statusCode(409);
        admin().get("/admin/v1/workspaces/ws_000000000000000000000404/members")
                .then()
                .statusCode(404);
    }

    @Test
    void theMembersApiNeedsTheAdminToken() {
        given().contentType(ContentType.JSON)
                .get("/admin/v1/workspaces/" + newWorkspace() + "/members")
                .then()
                .statusCode(401);
    }
}
