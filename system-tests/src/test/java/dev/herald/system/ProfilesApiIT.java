package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every profiles behaviour of the spec, as a customer sees it: HTTP to the gateway, nothing else. */
class ProfilesApiIT {
    private String workspace;
    private String testKey;
    private String liveKey;

    @BeforeEach
    void newWorkspace() {
        workspace = RunningSuite.newWorkspace("Profiles IT");
        testKey = RunningSuite.newKey(workspace, "test");
        liveKey = RunningSuite.newKey(workspace, "live");
    }

    private RequestSpecification json(String key) {
        return as(key).contentType(ContentType.JSON);
    }

    private String create(String key, String body) {
        return json(key)
                .body(body)
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    @Test
    void theDemoKeysCreateAProfileThatTheLiveKeyCannotSee() {
        var suite = RunningSuite.get();
        Response created = json(suite.demoTestKey()).body("{\"name\":\"Acme\"}").post("/profiles");
        created.then()
                .statusCode(201)
                .header("x-request-id", matchesPattern("^req_[a-f0-9]{24}$"))
                .header("X-RateLimit-Limit", notNullValue())
                .header("X-RateLimit-Remaining", notNullValue())
                .header("X-RateLimit-Reset", notNullValue())
                .body("data.id", matchesPattern("^prf_[a-f0-9]{24}$"))
                .body("data.name", equalTo("Acme"))
                .body("data.external_id", nullValue());
        String id = created.path("data.id");
        as(suite.demoTestKey()).get("/profiles/" + id).then().statusCode(200).body("data.id", equalTo(id));
        as(suite.demoLiveKey()).get("/profiles/" + id).then().statusCode(404).body("error.code", equalTo("not_found"));
        List<String> liveIds = as(suite.demoLiveKey())
                .queryParam("limit", 100)
                .get("/profiles")
                .then()
                .statusCode(200)
                .extract()
                .path("data.id");
        assertThat(liveIds).doesNotContain(id);
    }

    @Test
    void anotherWorkspacesProfileIsNotFoundEverywhere() {
        String id = create(testKey, "{\"name\":\"Private\"}");
        String stranger = RunningSuite.newKey(RunningSuite.newWorkspace("Stranger"), "test");
        as(stranger).get("/profiles/" + id).then().statusCode(404).body("error.code", equalTo("not_found"));
        json(stranger)
                .body("{\"name\":\"Hijack\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(404);
        as(stranger).delete("/profiles/" + id).then().statusCode(404);
        as(testKey).get("/profiles/" + id).then().statusCode(200).body("data.name", equalTo("Private"));
    }

    @Test
    void paginationWalksToTheEndWithAnHonestHasMore() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            created.add(0, create(testKey, "{\"name\":\"Page " + i + "\"}"));
        }
        List<JsonPath> pages = ApiLists.pages(() -> as(testKey), "/profiles", 3);
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < pages.size(); i++) {
            JsonPath page = pages.get(i);
            seen.addAll(page.getList("data.id"));
            // has_more is true exactly on the pages that give a cursor to the next one.
            boolean last = i == pages.size() - 1;
            assertThat(page.getBoolean("meta.has_more"))
                    .as("has_more of page " + (i + 1))
                    .isEqualTo(!last);
            if (!last) {
                assertThat(page.getString("meta.next_cursor")).isNotBlank();
            }
        }
        assertThat(pages).hasSize(3);
        assertThat(seen).containsExactlyElementsOf(created);
    }

    @Test
    void aCursorReplayedWithOtherFiltersOrInTheOtherModeIsRejected() {
        for (int i = 0; i < 3; i++) {
            create(testKey, "{\"name\":\"Shop " + i + "\"}");
        }
        String cursor = as(testKey)
                .queryParam("limit", 1)
                .queryParam("q", "shop")
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("meta.has_more", equalTo(true))
                .extract()
                .path("meta.next_cursor");
        as(testKey)
                .queryParam("limit", 1)
                .queryParam("q", "shop")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("data", hasSize(1));
        as(testKey)
                .queryParam("q", "sho")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(testKey)
                .queryParam("external_id", "x")
                .queryParam("q", "shop")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(liveKey)
                .queryParam("q", "shop")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        String otherWorkspaceKey = RunningSuite.newKey(RunningSuite.newWorkspace("Other"), "test");
        as(otherWorkspaceKey)
                .queryParam("q", "shop")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(testKey)
                .queryParam("q", "shop")
                .queryParam("cursor", cursor + "x")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
    }

    @Test
    void listFiltersByNameAndExternalId() {
        create(testKey, "{\"name\":\"Blue Bottle\",\"external_id\":\"cust_1\"}");
        create(testKey, "{\"name\":\"BLUE sky\"}");
        create(testKey, "{\"name\":\"Red\",\"external_id\":\"cust_10\"}");
        as(testKey)
                .queryParam("q", "blue")
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("data", hasSize(2));
        as(testKey)
                .queryParam("external_id", "cust_1")
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].name", equalTo("Blue Bottle"));
        as(testKey)
                .queryParam("q", "x".repeat(1000))
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("request_id", notNullValue());
        as(testKey)
                .queryParam("external_id", "x".repeat(201))
                .get("/profiles")
                .then()
                .statusCode(400);
    }

    @Test
    void patchPreservesOmittedFieldsAndNullRemovesTheExternalId() {
        String id = create(testKey, "{\"name\":\"Before\",\"external_id\":\"ref-1\"}");
        json(testKey)
                .body("{\"name\":\"After\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.name", equalTo("After"))
                .body("data.external_id", equalTo("ref-1"));
        json(testKey)
                .body("{\"external_id\":null}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.external_id", nullValue())
                .body("data.name", equalTo("After"));
        json(testKey)
                .body("{\"workspace_id\":\"ws_000000000000000000000001\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors[0].field", equalTo("workspace_id"));
    }

    @Test
    void externalIdIsUniqueWithinWorkspaceAndMode() {
        create(testKey, "{\"name\":\"One\",\"external_id\":\"dup\"}");
        json(testKey)
                .body("{\"name\":\"Two\",\"external_id\":\"dup\"}")
                .post("/profiles")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("external_id_taken"));
        create(liveKey, "{\"name\":\"Live twin\",\"external_id\":\"dup\"}");
    }

    @Test
    void deleteAnswersTheDeletedResourceAndTheProfileIsGone() {
        String id = create(testKey, "{\"name\":\"Short lived\"}");
        as(testKey)
                .delete("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(id))
                .body("data.deleted", equalTo(true));
        as(testKey).get("/profiles/" + id).then().statusCode(404);
    }

    @Test
    void badInputIsAnsweredWithThePreciseError() {
        json(testKey)
                .body("{\"name\":")
                .post("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details", notNullValue());
        as(testKey)
                .contentType(ContentType.TEXT)
                .body("name=Acme")
                .post("/profiles")
                .then()
                .statusCode(415)
                .body("error.code", equalTo("unsupported_media_type"));
        json(testKey)
                .body("{\"name\":\"" + "a".repeat(2 * 1024 * 1024) + "\"}")
                .post("/profiles")
                .then()
                .statusCode(413)
                .body("error.code", equalTo("payload_too_large"));
        as(testKey)
                .queryParam("limit", "many")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("limit"));
        json(testKey)
                .body("{\"name\":\"" + "n".repeat(101) + "\",\"external_id\":7}")
                .post("/profiles")
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(2));
        as(testKey).get("/profiles").then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void credentialsAndScopesAreChecked() throws InterruptedException {
        RunningSuite.as("")
                .get("/profiles")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
        io.restassured.RestAssured.given()
                .baseUri(RunningSuite.baseUrl())
                .get("/profiles")
                .then()
                .statusCode(401)
                .header("X-RateLimit-Limit", notNullValue())
                .header("x-request-id", notNullValue());

        var created = RunningSuite.admin()
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String revocable = created.getString("data.secret");
        as(revocable).get("/profiles").then().statusCode(200);
        RunningSuite.admin()
                .delete("/admin/v1/api-keys/" + created.getString("data.id"))
                .then()
                .statusCode(200);
        // Revocation takes effect within a second (the gateway remembers a key that long).
        long revokedAt = System.nanoTime();
        int status = 200;
        while (status != 401 && System.nanoTime() - revokedAt < 3_000_000_000L) {
            // Paced: a tight loop would spend the workspace's 30 requests a minute.
            Thread.sleep(100);
            status = as(revocable).get("/profiles").statusCode();
        }
        assertThat(status).isEqualTo(401);
        assertThat((System.nanoTime() - revokedAt) / 1_000_000).isLessThan(1_500);

        String readOnly = RunningSuite.newKey(workspace, "test", "profiles:read");
        json(readOnly)
                .body("{\"name\":\"Nope\"}")
                .post("/profiles")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("insufficient_scope"))
                .body("error.details.required_scope", equalTo("profiles:write"));
        as(readOnly).get("/profiles").then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void unknownRoutesAndMethodsAnswerInTheEnvelope() {
        as(testKey).get("/nothing-here").then().statusCode(404).body("error.code", equalTo("not_found"));
        as(testKey).put("/profiles").then().statusCode(405).body("error.code", equalTo("method_not_allowed"));
    }
}
