package dev.herald.webhooks.rest;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /webhooks}: endpoints, their validation, tenancy, disabling and secret rotation. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class WebhookResourceTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Test
    void creatingAnEndpointAnswersItWithItsSecretOnceAndNeverAgain() {
        JsonPath created = as(workspace, Mode.TEST)
                .body(
                        "{\"url\":\"http://127.0.0.1:9/hooks?x=1\",\"description\":\"Orders\",\"events\":[\"post.failed\",\"post.published\"]}")
                .post("/webhooks")
                .then()
                .statusCode(201)
                .body("data.url", equalTo("http://127.0.0.1:9/hooks?x=1"))
                .body("data.description", equalTo("Orders"))
                .body("data.events", containsInAnyOrder("post.failed", "post.published"))
                .body("data.status", equalTo("enabled"))
                .body("data.mode", equalTo("test"))
                .body("data.disabled_at", nullValue())
                .body("data.disabled_reason", nullValue())
                .extract()
                .jsonPath();
        String id = created.getString("data.id");
        String secret = created.getString("data.secret");
        assertThat(id).matches("^whe_[a-f0-9]{24}$");
        assertThat(secret).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(secret.substring("whsec_".length())))
                .hasSize(32);
        assertThat(OffsetDateTime.parse(created.getString("data.created_at")))
                .isEqualTo(OffsetDateTime.parse(created.getString("data.updated_at")));

        as(workspace, Mode.TEST)
                .get("/webhooks/" + id)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(id))
                .body("data", not(hasKey("secret")));
        as(workspace, Mode.TEST)
                .get("/webhooks")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo(id))
                .body("data[0]", not(hasKey("secret")));
    }

    @Test
    void theSecretIsStoredEncryptedNotInTheClear() throws Exception {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/hooks", "post.published");
        List<Map<String, Object>> stored =
                rows("select sealed, expires_at from endpoint_secrets where endpoint_id = ?", endpoint.id());
        assertThat(stored).singleElement().satisfies(row -> {
            assertThat((String) row.get("sealed"))
                    .startsWith("hsc1.")
                    .doesNotContain(endpoint.secret())
                    .doesNotContain(endpoint.secret().substring("whsec_".length()));
            assertThat(row.get("expires_at")).isNull();
        });
    }

    @Test
    void everyFailingFieldIsReportedAtOnce() {
        as(workspace, Mode.TEST)
                .body(
                        "{\"url\":\"ftp://example.com/x\",\"description\":\"" + "d".repeat(501) + "\","
                                + "\"events\":[\"post.published\",\"post.deleted\",7,\"post.published\"],\"status\":\"enabled\"}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder("url", "description", "events[1]", "events[2]", "events[3]", "status"))
                .body("error.details.errors.find { it.field == 'url' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'description' }.code", equalTo("too_long"))
                .body("error.details.errors.find { it.field == 'events[1]' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'events[2]' }.code", equalTo("invalid_type"))
                .body("error.details.errors.find { it.field == 'events[3]' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'status' }.code", equalTo("unknown_field"));
        as(workspace, Mode.TEST).get("/webhooks").then().body("data.size()", equalTo(0));
    }

    @Test
    void anUnknownEventIsRefused() {
        as(workspace, Mode.TEST)
                .body("{\"url\":\"http://127.0.0.1:9/\",\"events\":[\"post.created\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("events[0]"))
                .body("error.details.errors[0].code", equalTo("invalid_value"))
                .body(
                        "error.details.errors[0].message",
                        equalTo(
                                "events[0] must be one of post.published, post.partially_failed, post.failed, post.canceled,"
                                        + " usage.threshold_reached, account.reauth_required, account.disconnected,"
                                        + " account.reconnected."));
    }

    @Test
    void urlAndEventsAreRequiredAndEventsMustNotBeEmpty() {
        as(workspace, Mode.TEST)
                .body("{}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("url", "events"))
                .body("error.details.errors.code", containsInAnyOrder("required", "required"));
        as(workspace, Mode.TEST)
                .body("{\"url\":\"http://127.0.0.1:9/\",\"events\":[],\"description\":null}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("events"))
                .body("error.details.errors[0].code", equalTo("too_short"));
        as(workspace, Mode.TEST)
                .body("{\"url\":\"http://127.0.0.1:9/\",\"events\":\"post.failed\"}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_type"));
        as(workspace, Mode.TEST)
                .body("[]")
                .post("/webhooks")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
        as(workspace, Mode.TEST)
                .body("{\"url\":")
                .post("/webhooks")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
    }

    @Test
    void urlsWithUserInformationAFragmentOrAnImpossiblePortAreRefused() {
        as(workspace, Mode.TEST)
                .body("{\"url\":\"https://user:pw@example.com/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("url"))
                .body("error.details.errors[0].code", equalTo("invalid_format"));
        as(workspace, Mode.TEST)
                .body("{\"url\":\"https://example.com/hooks#x\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_format"));
        // No receiver can listen on these: every delivery would fail for about 32 hours.
        as(workspace, Mode.TEST)
                .body("{\"url\":\"https://8.8.8.8:70000/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_format"));
        as(workspace, Mode.TEST)
                .body("{\"url\":\"https://" + "a".repeat(2040) + ".com/\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("too_long"));
    }

    @Test
    void anUnresolvableHostIsRefused() {
        as(workspace, Mode.TEST)
                .body("{\"url\":\"https://no-such-host.invalid/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("url"))
                .body("error.details.errors[0].code", equalTo("invalid_value"));
    }

    @Test
    void listsRunNewestFirstAndPageWithCursorsBoundToTheTenant() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(register(workspace, Mode.TEST, "http://127.0.0.1:9/" + i, "post.published")
                    .id());
        }
        JsonPath first = as(workspace, Mode.TEST)
                .queryParam("limit", 2)
                .get("/webhooks")
                .then()
                .statusCode(200)
                .body("meta.has_more", equalTo(true))
                .extract()
                .jsonPath();
        assertThat(first.getList("data.id")).containsExactly(ids.get(2), ids.get(1));
        String cursor = first.getString("meta.next_cursor");
        as(workspace, Mode.TEST)
                .queryParam("limit", 2)
                .queryParam("cursor", cursor)
                .get("/webhooks")
                .then()
                .statusCode(200)
                .body("data.id", org.hamcrest.Matchers.contains(ids.get(0)))
                .body("meta.has_more", equalTo(false))
                .body("meta.next_cursor", nullValue());
        // The cursor belongs to this workspace and mode.
        as(workspace, Mode.LIVE)
                .queryParam("cursor", cursor)
                .get("/webhooks")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .queryParam("limit", 0)
                .get("/webhooks")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/webhooks?cursor=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));
    }

    @Test
    void anotherTenantsEndpointIsNotFound() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        String other = ResourceIds.newId(IdPrefix.WORKSPACE);
        for (var request : List.of(as(other, Mode.TEST), as(workspace, Mode.LIVE))) {
            request.get("/webhooks/" + endpoint.id()).then().statusCode(404).body("error.code", equalTo("not_found"));
        }
        as(other, Mode.TEST).delete("/webhooks/" + endpoint.id()).then().statusCode(404);
        as(other, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(404);
        as(other, Mode.TEST).post("/webhooks/" + endpoint.id() + "/test").then().statusCode(404);
        as(workspace, Mode.LIVE).get("/webhooks").then().body("data.size()", equalTo(0));
        as(workspace, Mode.TEST)
                .get("/webhooks/whe_000000000000000000000000")
                .then()
                .statusCode(404);
    }

    @Test
    void disablingAnswersTheDisabledEndpointAndIsIdempotent() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        JsonPath disabled = as(workspace, Mode.TEST)
                .delete("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.id", equalTo(endpoint.id()))
                .body("data.status", equalTo("disabled"))
                .body("data.disabled_reason", equalTo("requested"))
                .body("data.disabled_at", notNullValue())
                .body("data", not(hasKey("secret")))
                .extract()
                .jsonPath();
        as(workspace, Mode.TEST)
                .delete("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.status", equalTo("disabled"))
                .body("data.disabled_at", equalTo(disabled.getString("data.disabled_at")))
                .body("data.updated_at", equalTo(disabled.getString("data.updated_at")));
        as(workspace, Mode.TEST).get("/webhooks/" + endpoint.id()).then().body("data.status", equalTo("disabled"));
        as(workspace, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/test")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.reason", equalTo("endpoint_disabled"));
    }

    @Test
    void rotatingTheSecretAnswersANewOneAndKeepsTheOldOneSigningForADay() throws Exception {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        String rotated = as(workspace, Mode.TEST)
                .post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(200)
                .body("data.id", equalTo(endpoint.id()))
                .extract()
                .path("data.secret");
        assertThat(rotated).startsWith("whsec_").isNotEqualTo(endpoint.secret());
        List<Map<String, Object>> secrets = rows(
                "select expires_at, created_at from endpoint_secrets where endpoint_id = ? order by id", endpoint.id());
        assertThat(secrets).hasSize(2);
        assertThat(secrets.get(1).get("expires_at")).isNull();
        OffsetDateTime expires = ((java.sql.Timestamp) secrets.get(0).get("expires_at"))
                .toInstant()
                .atOffset(java.time.ZoneOffset.UTC);
        OffsetDateTime rotatedAt = ((java.sql.Timestamp) secrets.get(1).get("created_at"))
                .toInstant()
                .atOffset(java.time.ZoneOffset.UTC);
        assertThat(Duration.between(rotatedAt, expires)).isEqualTo(Duration.ofHours(24));
        as(workspace, Mode.TEST).get("/webhooks/" + endpoint.id()).then().body("data", not(hasKey("secret")));
        // Bodies are not taken: a field is refused.
        as(workspace, Mode.TEST)
                .body("{\"secret\":\"whsec_mine\"}")
                .post("/webhooks/" + endpoint.id() + "/rotate-secret")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("unknown_field"));
    }
}
