package dev.herald.webhooks.rest;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
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
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code PATCH /webhooks/{id}}: description and events change, everything else is refused. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class WebhookUpdateTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Test
    void sentFieldsChangeAndOmittedOnesAreKept() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        String before = as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .extract()
                .path("data.updated_at");

        JsonPath changed = as(workspace, Mode.TEST)
                .body("{\"events\":[\"post.failed\",\"usage.threshold_reached\"]}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.id", equalTo(endpoint.id()))
                .body("data.events", contains("post.failed", "usage.threshold_reached"))
                .body("data.description", equalTo("test receiver"))
                .body("data.url", equalTo("http://127.0.0.1:9/"))
                .body("data.status", equalTo("enabled"))
                .body("data", not(hasKey("secret")))
                .extract()
                .jsonPath();
        assertThat(OffsetDateTime.parse(changed.getString("data.updated_at"))).isAfter(OffsetDateTime.parse(before));

        as(workspace, Mode.TEST)
                .body("{\"description\":\"Orders\"}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.description", equalTo("Orders"))
                .body("data.events", contains("post.failed", "usage.threshold_reached"));
        as(workspace, Mode.TEST)
                .body("{\"description\":null}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.description", nullValue());
        as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .body("data.description", nullValue())
                .body("data.events", contains("post.failed", "usage.threshold_reached"));
    }

    @Test
    void anEmptyChangeAnswersTheEndpointAsItIs() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        String before = as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .extract()
                .path("data.updated_at");
        as(workspace, Mode.TEST)
                .body("{}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(200)
                .body("data.updated_at", equalTo(before))
                .body("data.events", contains("post.published"));
    }

    @Test
    void fieldsThatAreNotChangeableAndBadValuesAreRefusedAllAtOnceAndNothingChanges() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        as(workspace, Mode.TEST)
                .body(
                        "{\"url\":\"http://127.0.0.1:10/\",\"secret\":\"whsec_x\",\"status\":\"disabled\",\"id\":\"whe_1\","
                                + "\"mode\":\"live\",\"description\":\"" + "d".repeat(501) + "\","
                                + "\"events\":[\"post.failed\",\"post.deleted\",\"post.failed\"]}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        containsInAnyOrder(
                                "url", "secret", "status", "id", "mode", "description", "events[1]", "events[2]"))
                .body("error.details.errors.find { it.field == 'url' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'secret' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'description' }.code", equalTo("too_long"))
                .body("error.details.errors.find { it.field == 'events[1]' }.code", equalTo("invalid_value"));
        as(workspace, Mode.TEST)
                .body("{\"events\":[]}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("events"))
                .body("error.details.errors[0].code", equalTo("too_short"));
        as(workspace, Mode.TEST)
                .body("{\"events\":null}")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("required"));
        as(workspace, Mode.TEST)
                .body("[]")
                .patch("/webhooks/" + endpoint.id())
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
        as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .body("data.url", equalTo("http://127.0.0.1:9/"))
                .body("data.status", equalTo("enabled"))
                .body("data.description", equalTo("test receiver"))
                .body("data.events", contains("post.published"));
    }

    @Test
    void anotherTenantsEndpointIsNotFound() {
        Registered endpoint = register(workspace, Mode.TEST, "http://127.0.0.1:9/", "post.published");
        String other = ResourceIds.newId(IdPrefix.WORKSPACE);
        for (var request : List.of(as(other, Mode.TEST), as(workspace, Mode.LIVE))) {
            request.body("{\"description\":\"mine now\"}")
                    .patch("/webhooks/" + endpoint.id())
                    .then()
                    .statusCode(404)
                    .body("error.code", equalTo("not_found"));
        }
        as(workspace, Mode.TEST)
                .get("/webhooks/" + endpoint.id())
                .then()
                .body("data.description", equalTo("test receiver"));
    }
}
