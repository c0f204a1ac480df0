package dev.herald.accounts.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = ConnectFakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
public class ConnectSessionResourceTest {
    static final String DATABASE = "accounts_test";
    private String workspace;
    private String profile;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
    }

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "accounts:read", "accounts:write"))
                .contentType(ContentType.JSON);
    }

    @Test
    void createAnswersThePrivateUrlOnceAndStoresOnlyTheTokensHash() throws SQLException {
        var created = as(workspace, Mode.TEST)
                .body(
                        "{\"profile_id\":\"" + profile + "\",\"platforms\":[\"tiktok\",\"youtube\"],"
                                + "\"redirect_url\":\"https://app.example.com/done?x=1\",\"embed_origin\":\"https://App.Example.com\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^cs_[a-f0-9]{24}$"))
                .body("data.status", equalTo("open"))
                .body("data.mode", equalTo("test"))
                .body("data.profile_id", equalTo(profile))
                .body("data.platforms", contains("tiktok", "youtube"))
                .body("data.account_ids", org.hamcrest.Matchers.empty())
                .body("data.redirect_url", equalTo("https://app.example.com/done?x=1"))
                .body("data.embed_origin", equalTo("https://app.example.com"))
                .body("data.url", matchesPattern("^http://127\\.0\\.0\\.1:18080/connect/[A-Za-z0-9_-]{43}$"))
                .extract();
        String id = created.path("data.id");
        String url = created.path("data.url");
        Instant createdAt = Instant.parse(created.path("data.created_at"));
        assertThat(Instant.parse(created.<String>path("data.expires_at")))
                .isEqualTo(createdAt.plus(Duration.ofHours(1)));

        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + id)
                .then()
                .statusCode(200)
                .body("data", not(hasKey("url")))
                .body("data.status", equalTo("open"));

        String token = url.substring(url.lastIndexOf('/') + 1);
        try (Connection db = database();
                PreparedStatement query = db.prepareStatement("select * from connect_sessions where id = ?")) {
            query.setString(1, id);
            ResultSet row = query.executeQuery();
            assertThat(row.next()).isTrue();
            assertThat(row.getString("token_hash")).isEqualTo(ConnectBrowserBinding.hashLinkToken(token));
            for (int column = 1; column <= row.getMetaData().getColumnCount(); column++) {
                assertThat(String.valueOf(row.getString(column))).doesNotContain(token);
            }
        }
    }

    @Test
    void everyBadFieldIsReportedAtOnce() {
        as(workspace, Mode.TEST)
                .body(
                        "{\"platforms\":[\"tiktok\",\"myspace\",\"tiktok\"],\"redirect_url\":\"http://app.example.com/x\","
                                + "\"embed_origin\":\"https://app.example.com/path\",\"expires_in\":604801,\"status\":\"completed\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder(
                                "status",
                                "profile_id",
                                "platforms[1]",
                                "platforms[2]",
                                "redirect_url",
                                "embed_origin",
                                "expires_in"))
                .body("error.details.errors.find { it.field == 'status' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'profile_id' }.code", equalTo("required"))
                .body("error.details.errors.find { it.field == 'expires_in' }.code", equalTo("invalid_value"));
    }

    @Test
    void aLocaleIsOneOfThePagesLanguagesOrATagOfOneAndIsAnsweredNormalized() {
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"locale\":\"PT-br\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body("data.locale", equalTo("pt-BR"));
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body("data", hasKey("locale"))
                .body("data.locale", org.hamcrest.Matchers.nullValue());
        // Not a language the page speaks, not a well-formed tag (an underscore, an empty subtag), not a string.
        for (String locale : new String[] {"\"ja\"", "\"de_DE\"", "\"de--AT\"", "\"\"", "\"english\"", "42"}) {
            as(workspace, Mode.TEST)
                    .body("{\"profile_id\":\"" + profile + "\",\"locale\":" + locale + "}")
                    .post("/connect-sessions")
                    .then()
                    .statusCode(422)
                    .body("error.code", equalTo("validation_failed"))
                    .body("error.details.errors.field", contains("locale"));
        }
    }

    @Test
    void aPortOutsideOneTo65535IsABadRedirectOrOrigin() {
        for (String port : new String[] {"0", "65536", "99999"}) {
            as(workspace, Mode.TEST)
                    .body("{\"profile_id\":\"" + profile + "\",\"redirect_url\":\"https://app.example.com:" + port
                            + "/done\",\"embed_origin\":\"https://app.example.com:" + port + "\"}")
                    .post("/connect-sessions")
                    .then()
                    .statusCode(422)
                    .body("error.details.errors.field", containsInAnyOrder("redirect_url", "embed_origin"))
                    .body("error.details.errors.code", contains("invalid_format", "invalid_format"));
        }
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"redirect_url\":\"https://app.example.com:65535/done\","
                        + "\"embed_origin\":\"https://app.example.com:1\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(201);
    }

    @Test
    void plainHttpIsAcceptedOnlyForLocalhostAndExpiryUpToSevenDays() {
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"redirect_url\":\"http://localhost:3000/back\","
                        + "\"embed_origin\":\"http://127.0.0.1:5173\",\"expires_in\":604800}")
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .body(
                        "data.platforms",
                        contains("tiktok", "instagram", "facebook", "youtube", "pinterest", "linkedin"));
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + profile + "\",\"platforms\":[],\"expires_in\":\"60\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(422)
                .body("error.details.errors.find { it.field == 'platforms' }.code", equalTo("too_short"))
                .body("error.details.errors.find { it.field == 'expires_in' }.code", equalTo("invalid_type"));
    }

    @Test
    void aProfileOutsideTheWorkspaceAndModeIsAFieldError() {
        as(workspace, Mode.TEST)
                .body("{\"profile_id\":\"" + ConnectFakeUpstreams.MISSING_PROFILE + "\"}")
                .post("/connect-sessions")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("profile_id"))
                .body("error.details.errors[0].code", equalTo("invalid_value"));
    }

    @Test
    void anotherWorkspacesOrModesSessionIsNotFound() {
        String id = create(workspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");
        String other = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(other, Mode.TEST)
                .get("/connect-sessions/" + id)
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(other, Mode.TEST).delete("/connect-sessions/" + id).then().statusCode(404);
        as(workspace, Mode.LIVE).get("/connect-sessions/" + id).then().statusCode(404);
        as(workspace, Mode.TEST).get("/connect-sessions/cs_nothex").then().statusCode(404);
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("open"));
    }

    @Test
    void deleteRevokesOnceAndLeavesFinalSessionsAsTheyAre() {
        String id = create(workspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");
        String revokedAt = as(workspace, Mode.TEST)
                .delete("/connect-sessions/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("revoked"))
                .body("data", not(hasKey("url")))
                .extract()
                .path("data.revoked_at");
        as(workspace, Mode.TEST)
                .delete("/connect-sessions/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("revoked"))
                .body("data.revoked_at", equalTo(revokedAt));

        String expiring = create(workspace, Mode.TEST, "{\"profile_id\":\"" + profile + "\"}");
        expire(expiring);
        as(workspace, Mode.TEST)
                .get("/connect-sessions/" + expiring)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("expired"));
        as(workspace, Mode.TEST)
                .delete("/connect-sessions/" + expiring)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("expired"))
                .body("data.revoked_at", nullValue());
    }

    @Test
    void aWorkspaceCreatesAtMostTheHourlyCapOfSessionsAndOthersAreUnaffected() {
        String body = "{\"profile_id\":\"" + profile + "\"}";
        for (int i = 0; i < 100; i++) {
            create(workspace, Mode.TEST, body);
        }

        as(workspace, Mode.TEST)
                .body(body)
                .post("/connect-sessions")
                .then()
                .statusCode(429)
                .header("Retry-After", matchesPattern("^[0-9]{1,4}$"))
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.details.limit", equalTo(100))
                .body("error.details.window_seconds", equalTo(3600));
        create(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST, body);
    }

    public static String create(String workspaceId, Mode mode, String body) {
        return as(workspaceId, mode)
                .body(body)
                .post("/connect-sessions")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    static void expire(String sessionId) {
        try (Connection db = database();
                PreparedStatement update = db.prepareStatement(
                        "update connect_sessions set expires_at = now() - interval '1 second' where id = ?")) {
            update.setString(1, sessionId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static Connection database() throws SQLException {
        return RealInfrastructure.connect(DATABASE);
    }
}
