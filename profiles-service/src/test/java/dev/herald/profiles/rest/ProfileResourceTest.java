package dev.herald.profiles.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class ProfileResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "profiles:read", "profiles:write"))
                .contentType(ContentType.JSON);
    }

    private RequestSpecification asTest() {
        return as(workspace, Mode.TEST);
    }

    private String create(String body) {
        return asTest().body(body)
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    @Test
    void createAnswersTheProfileWithAnIdAndTimestamps() {
        asTest().body("{\"name\":\"  Acme  \",\"external_id\":\"cust-1\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^prf_[a-f0-9]{24}$"))
                .body("data.name", equalTo("Acme"))
                .body("data.external_id", equalTo("cust-1"))
                .body("data.mode", equalTo("test"))
                .body("data.created_at", matchesPattern("^\\d{4}-\\d{2}-\\d{2}T.*Z$"))
                .body("data.updated_at", notNullValue());
    }

    @Test
    void createReportsEveryInvalidFieldAtOnce() {
        asTest().body("{\"name\":\"   \",\"external_id\":\"" + "x".repeat(201)
                        + "\",\"mode\":\"live\",\"id\":\"prf_1\"}")
                .post("/profiles")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(4))
                .body("error.details.errors.find { it.field == 'name' }.code", equalTo("too_short"))
                .body("error.details.errors.find { it.field == 'external_id' }.code", equalTo("too_long"))
                .body("error.details.errors.find { it.field == 'mode' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'id' }.code", equalTo("unknown_field"))
                .body("request_id", notNullValue());
        asTest().get("/profiles").then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void createRequiresAStringName() {
        asTest().body("{\"name\":42}")
                .post("/profiles")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("name"))
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        asTest().body("{}")
                .post("/profiles")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("required"));
        asTest().body("[]").post("/profiles").then().statusCode(400).body("error.code", equalTo("invalid_request"));
        asTest().body("{\"name\":")
                .post("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
    }

    @Test
    void externalIdIsUniquePerWorkspaceAndMode() {
        create("{\"name\":\"A\",\"external_id\":\"same\"}");
        asTest().body("{\"name\":\"B\",\"external_id\":\"same\"}")
                .post("/profiles")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("external_id_taken"));
        as(workspace, Mode.LIVE)
                .body("{\"name\":\"B\",\"external_id\":\"same\"}")
                .post("/profiles")
                .then()
                .statusCode(201);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .body("{\"name\":\"C\",\"external_id\":\"same\"}")
                .post("/profiles")
                .then()
                .statusCode(201);
    }

    @Test
    void otherTenantsProfilesAreNotFound() {
        String id = create("{\"name\":\"Mine\"}");
        as(workspace, Mode.LIVE).get("/profiles/" + id).then().statusCode(404).body("error.code", equalTo("not_found"));
        String stranger = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(stranger, Mode.TEST).get("/profiles/" + id).then().statusCode(404);
        as(stranger, Mode.TEST)
                .body("{\"name\":\"x\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(404);
        as(stranger, Mode.TEST).delete("/profiles/" + id).then().statusCode(404);
        asTest().get("/profiles/" + id).then().statusCode(200).body("data.name", equalTo("Mine"));
    }

    @Test
    void patchPreservesOmittedFieldsAndNullRemovesTheExternalId() {
        String id = create("{\"name\":\"Before\",\"external_id\":\"ref\"}");
        asTest().body("{\"name\":\"After\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.name", equalTo("After"))
                .body("data.external_id", equalTo("ref"));
        asTest().body("{\"external_id\":null}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.name", equalTo("After"))
                .body("data.external_id", nullValue());
        asTest().body("{\"name\":null}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("not_nullable"));
        asTest().body("{\"created_at\":\"2020-01-01T00:00:00Z\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("unknown_field"));
        asTest().get("/profiles/" + id)
                .then()
                .body("data.name", equalTo("After"))
                .body("data.external_id", nullValue());
    }

    @Test
    void patchToAnExternalIdInUseIsAConflict() {
        create("{\"name\":\"A\",\"external_id\":\"taken\"}");
        String id = create("{\"name\":\"B\"}");
        asTest().body("{\"external_id\":\"taken\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("external_id_taken"));
        asTest().get("/profiles/" + id).then().body("data.external_id", nullValue());
    }

    @Test
    void listFiltersByNameSubstringIgnoringCaseAndByExactExternalId() {
        create("{\"name\":\"Acme Coffee\",\"external_id\":\"a-1\"}");
        create("{\"name\":\"ACME tea\"}");
        create("{\"name\":\"100% Juice\"}");
        create("{\"name\":\"Other\",\"external_id\":\"a-10\"}");
        asTest().queryParam("q", "acme").get("/profiles").then().statusCode(200).body("data", hasSize(2));
        asTest().queryParam("q", "%")
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].name", equalTo("100% Juice"));
        asTest().queryParam("external_id", "a-1")
                .get("/profiles")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].name", equalTo("Acme Coffee"));
        asTest().queryParam("q", "x".repeat(201))
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("q"));
    }

    @Test
    void paginationWalksEveryProfileOnceNewestFirst() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(0, create("{\"name\":\"P" + i + "\"}"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        boolean hasMore = true;
        int pages = 0;
        while (hasMore) {
            RequestSpecification request = asTest().queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            var page = request.get("/profiles").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("data.id"));
            hasMore = page.getBoolean("meta.has_more");
            cursor = page.getString("meta.next_cursor");
            assertThat(cursor == null).isEqualTo(!hasMore);
            pages++;
        }
        assertThat(pages).isEqualTo(3);
        assertThat(seen).isEqualTo(created);
    }

    @Test
    void aCursorIsBoundToItsFiltersAndTenant() {
        for (int i = 0; i < 3; i++) {
            create("{\"name\":\"Acme " + i + "\"}");
        }
        String cursor = asTest().queryParam("limit", 1)
                .queryParam("q", "acme")
                .get("/profiles")
                .then()
                .statusCode(200)
                .extract()
                .path("meta.next_cursor");
        asTest().queryParam("q", "acme")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(200);
        asTest().queryParam("q", "acm")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.LIVE)
                .queryParam("q", "acme")
                .queryParam("cursor", cursor)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        String tampered = cursor.substring(0, cursor.length() - 2) + (cursor.endsWith("A") ? "BB" : "AA");
        asTest().queryParam("q", "acme")
                .queryParam("cursor", tampered)
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        asTest().queryParam("cursor", "x".repeat(4097))
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
    }

    @Test
    void limitMustBeAnIntegerFromOneToOneHundred() {
        asTest().queryParam("limit", "ten")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("limit"));
        asTest().queryParam("limit", 0).get("/profiles").then().statusCode(400);
        asTest().queryParam("limit", 101).get("/profiles").then().statusCode(400);
        asTest().queryParam("limit", 100).get("/profiles").then().statusCode(200);
    }

    @Test
    void anEmptyLimitOrCursorIsRefusedNotReadAsAbsent() {
        asTest().get("/profiles?limit=")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("limit"));
        asTest().get("/profiles?cursor=")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("cursor"));
        asTest().get("/profiles?cursor").then().statusCode(400).body("error.details.parameter", equalTo("cursor"));
    }

    @Test
    void deleteRemovesAnUnheldProfile() {
        String id = create("{\"name\":\"Gone\",\"external_id\":\"reuse-me\"}");
        asTest().delete("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(id))
                .body("data.deleted", equalTo(true));
        asTest().get("/profiles/" + id).then().statusCode(404);
        asTest().delete("/profiles/" + id).then().statusCode(404);
        create("{\"name\":\"New\",\"external_id\":\"reuse-me\"}");
    }

    @Test
    void concurrentDeletesOfDifferentProfilesAllSucceedAndLeaveTheServiceServing() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(create("{\"name\":\"Racing " + i + "\"}"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (String id : ids) {
                answers.add(pool.submit(() ->
                        asTest().delete("/profiles/" + id).then().extract().statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertThat(answer.get(60, TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        for (String id : ids) {
            asTest().get("/profiles/" + id).then().statusCode(404);
        }
        create("{\"name\":\"Still serving\"}");
    }

    @Test
    void callersThatGiveUpMidTransactionLeaveNoConnectionBehind() throws Exception {
        String id = create("{\"name\":\"Locked\"}");
        var impatient = RestAssured.config()
                .httpClient(HttpClientConfig.httpClientConfig()
                        .setParam("http.socket.timeout", 300)
                        .setParam("http.connection.timeout", 2000));
        // More callers than the pool has connections, each disconnecting while its transaction waits on a row lock
        // (as a caller's timeout does): a cancelled transaction that kept its connection would empty the pool.
        try (Connection locker = RealInfrastructure.connect("profiles_test")) {
            locker.setAutoCommit(false);
            try (PreparedStatement lock = locker.prepareStatement("select id from profiles where id = ? for update")) {
                lock.setString(1, id);
                lock.executeQuery();
            }
            for (int i = 0; i < 25; i++) {
                try {
                    asTest().config(impatient).delete("/profiles/" + id);
                } catch (Exception timedOut) {
                    // expected: the caller gave up
                }
            }
            locker.rollback();
        }
        var patient = RestAssured.config()
                .httpClient(HttpClientConfig.httpClientConfig().setParam("http.socket.timeout", 10_000));
        asTest().config(patient).get("/profiles/" + id).then().statusCode(anyOf(equalTo(200), equalTo(404)));
        asTest().config(patient)
                .body("{\"name\":\"After\"}")
                .post("/profiles")
                .then()
                .statusCode(201);
    }

    @Test
    void deleteIsRefusedWhileAccountsOrPendingPostsHoldTheProfile() throws Exception {
        String id = create("{\"name\":\"Busy\"}");
        hold(id, "accounts", "acc_1");
        hold(id, "accounts", "acc_2");
        hold(id, "pending_posts", "pst_1");
        asTest().delete("/profiles/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("profile_not_empty"))
                .body("error.details.blocking.accounts", equalTo(2))
                .body("error.details.blocking.pending_posts", equalTo(1));
        asTest().get("/profiles/" + id).then().statusCode(200);
    }

    @Test
    void aRequestWithoutAValidInternalTokenIsRefused() {
        given().get("/profiles").then().statusCode(401).body("error.code", equalTo("authentication_failed"));
        given().header("Authorization", "Bearer not-a-jwt")
                .get("/profiles")
                .then()
                .statusCode(401);
    }

    @Test
    void aBodyThatIsNotJsonIsUnsupported() {
        given().header("Authorization", TestTokens.bearer(workspace, Mode.TEST, "profiles:write"))
                .contentType(ContentType.TEXT)
                .body("name=Acme")
                .post("/profiles")
                .then()
                .statusCode(415)
                .body("error.code", equalTo("unsupported_media_type"));
    }

    @Test
    void aStringPostgresCannotStoreAsSentIsRefusedWithEveryFieldNamed() {
        asTest().body("{\"name\":\"a\\u0000b\",\"external_id\":\"x\\udc00y\"}")
                .post("/profiles")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(2))
                .body("error.details.errors.find { it.field == 'name' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'external_id' }.code", equalTo("invalid_value"));
        String id = create("{\"name\":\"Acme\"}");
        asTest().body("{\"external_id\":\"\\ud800\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("external_id"));
        // A surrogate pair is one character (U+1F600), not an unpaired surrogate.
        asTest().body("{\"name\":\"Acme \\ud83d\\ude00\"}")
                .patch("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.name", equalTo("Acme \ud83d\ude00"));
        asTest().get("/profiles/" + id)
                .then()
                .statusCode(200)
                .body("data.name", equalTo("Acme \ud83d\ude00"))
                .body("data.external_id", nullValue());
    }

    @Test
    void aNulInAQueryValueIsABadParameterAndInAnIdIsNotFound() {
        asTest().queryParam("q", "a\u0000b")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("q"));
        asTest().queryParam("external_id", "\u0000")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("external_id"));
        asTest().queryParam("external_id", "")
                .get("/profiles")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("external_id"));
        asTest().get("/profiles/{id}", "prf_\u0000").then().statusCode(404).body("error.code", equalTo("not_found"));
        asTest().delete("/profiles/{id}", "prf_\u0000").then().statusCode(404).body("error.code", equalTo("not_found"));
    }

    @Test
    void aRepeatedKeyOrTextAfterTheJsonValueIsMalformedJsonWithTheEnvelope() {
        asTest().body("{\"name\":\"a\",\"name\":\"b\"}")
                .post("/profiles")
                .then()
                .statusCode(400)
                .contentType(ContentType.JSON)
                .body("error.code", equalTo("invalid_request"))
                .body(
                        "error.message",
                        equalTo("The request body is not valid JSON: an object names the same key twice."))
                .body("request_id", notNullValue());
        asTest().body("{\"name\":\"a\"}{\"name\":\"b\"}")
                .post("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.message", equalTo("The request body is not valid JSON: text follows its JSON value."));
        asTest().body("{\"name\":\"a\"} x")
                .post("/profiles")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.message", equalTo("The request body is not valid JSON."));
        asTest().get("/profiles").then().statusCode(200).body("data", hasSize(0));
    }

    private static void hold(String profileId, String kind, String holderId) throws Exception {
        try (Connection connection = RealInfrastructure.connect("profiles_test");
                PreparedStatement insert = connection.prepareStatement(
                        "insert into profile_holds (profile_id, kind, holder_id) values (?, ?, ?)")) {
            insert.setString(1, profileId);
            insert.setString(2, kind);
            insert.setString(3, holderId);
            insert.executeUpdate();
        }
    }
}
