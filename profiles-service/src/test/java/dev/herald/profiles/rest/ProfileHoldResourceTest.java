package dev.herald.profiles.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class ProfileHoldResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "profiles:read", "profiles:write"))
                .contentType(ContentType.JSON);
    }

    private String createProfile() {
        return as(workspace, Mode.TEST)
                .body("{\"name\":\"Acme\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    @Test
    void anAccountHoldBlocksDeletionUntilReleased() {
        String profile = createProfile();
        as(workspace, Mode.TEST)
                .put("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(204);
        // Holding again changes nothing: still one hold.
        as(workspace, Mode.TEST)
                .put("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(204);

        as(workspace, Mode.TEST)
                .delete("/profiles/" + profile)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("profile_not_empty"))
                .body("error.details.blocking.accounts", equalTo(1));

        as(workspace, Mode.TEST)
                .delete("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(204);
        as(workspace, Mode.TEST)
                .delete("/profiles/" + profile)
                .then()
                .statusCode(200)
                .body("data.deleted", equalTo(true));
        // Releasing after the profile is gone is fine.
        as(workspace, Mode.TEST)
                .delete("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(204);
    }

    @Test
    void aProfileOfAnotherWorkspaceOrModeCannotBeHeld() {
        String profile = createProfile();
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .put("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE)
                .put("/internal/profiles/" + profile + "/holds/accounts/acc_1")
                .then()
                .statusCode(404);
        as(workspace, Mode.TEST)
                .put("/internal/profiles/prf_000000000000000000000000/holds/accounts/acc_1")
                .then()
                .statusCode(404);
        // Nothing was held: the profile deletes.
        as(workspace, Mode.TEST).delete("/profiles/" + profile).then().statusCode(200);
    }

    @Test
    void unknownHoldKindsAreNotFound() {
        String profile = createProfile();
        as(workspace, Mode.TEST)
                .put("/internal/profiles/" + profile + "/holds/friends/acc_1")
                .then()
                .statusCode(404);
    }
}
