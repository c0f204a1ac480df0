package dev.herald.webhooks.rest;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.await;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pull endpoints ({@code kind: pull}, what {@code ./herald listen} registers): no URL, nothing sent, and their events
 * read through {@code GET /webhooks/{id}/events}, newest first, exactly as a push endpoint's deliveries carry them.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class PullEndpointTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Test
    void aPullEndpointHasNoUrlAndItsTestEventsWaitInItsFeed() throws Exception {
        JsonPath created = as(workspace, Mode.TEST)
                .body("{\"kind\":\"pull\",\"description\":\"herald listen\",\"events\":[\"post.published\"]}")
                .post("/webhooks")
                .then()
                .statusCode(201)
                .body("data.kind", equalTo("pull"))
                .body("data.url", nullValue())
                .body("data.status", equalTo("enabled"))
                .extract()
                .jsonPath();
        String id = created.getString("data.id");
        assertThat(created.getString("data.secret")).startsWith("whsec_");
        as(workspace, Mode.TEST).get("/webhooks/" + id).then().statusCode(200).body("data.kind", equalTo("pull"));
        as(workspace, Mode.TEST)
                .get("/webhooks/" + id + "/events")
                .then()
                .statusCode(200)
                .body("data.size()", equalTo(0))
                .body("meta.has_more", equalTo(false));

        List<String> eventIds = List.of(sendTest(id), sendTest(id), sendTest(id));
        // Nothing is sent: each delivery succeeds at once, with no attempt counted and no answer recorded.
        await(
                "the pull deliveries succeed",
                () -> deliveriesOf(id).stream()
                                .filter(row -> "succeeded".equals(row.get("status")))
                                .count()
                        == 3);
        for (Map<String, Object> delivery : deliveriesOf(id)) {
            assertThat(delivery.get("attempts")).isEqualTo(0);
            assertThat(delivery.get("last_response_status")).isNull();
            assertThat(delivery.get("last_error")).isNull();
        }

        JsonPath first = as(workspace, Mode.TEST)
                .queryParam("limit", 2)
                .get("/webhooks/" + id + "/events")
                .then()
                .statusCode(200)
                .body("data.type", containsInAnyOrder("webhook.test", "webhook.test"))
                .body("data[0].mode", equalTo("test"))
                .body("data[0].data.endpoint_id", equalTo(id))
                .body("meta.has_more", equalTo(true))
                .extract()
                .jsonPath();
        String cursor = first.getString("meta.next_cursor");
        JsonPath rest = as(workspace, Mode.TEST)
                .queryParam("limit", 2)
                .queryParam("cursor", cursor)
                .get("/webhooks/" + id + "/events")
                .then()
                .statusCode(200)
                .body("meta.has_more", equalTo(false))
                .extract()
                .jsonPath();
        // Newest first, every event once (reversed here to compare with the order they were sent in).
        List<String> listed = new java.util.ArrayList<>(first.getList("data.id", String.class));
        listed.addAll(rest.getList("data.id", String.class));
        java.util.Collections.reverse(listed);
        assertThat(listed).containsExactlyElementsOf(eventIds);
    }

    @Test
    void aPullEndpointTakesNoUrlAndAPushEndpointNeedsOne() {
        as(workspace, Mode.TEST)
                .body("{\"kind\":\"pull\",\"url\":\"http://127.0.0.1:9/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("url"))
                .body("error.details.errors[0].code", equalTo("invalid_value"));
        as(workspace, Mode.TEST)
                .body("{\"kind\":\"push\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("url"))
                .body("error.details.errors[0].code", equalTo("required"));
        as(workspace, Mode.TEST)
                .body("{\"kind\":\"poll\",\"url\":\"http://127.0.0.1:9/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("kind"));
        // A url given without a kind is a push endpoint, as before kinds existed.
        as(workspace, Mode.TEST)
                .body("{\"url\":\"http://127.0.0.1:9/hooks\",\"events\":[\"post.failed\"]}")
                .post("/webhooks")
                .then()
                .statusCode(201)
                .body("data.kind", equalTo("push"));
    }

    @Test
    void aPushEndpointsFeedShowsWhatItWasSentAndAnotherTenantsIsNotFound() {
        Registered push = register(workspace, Mode.TEST, "http://127.0.0.1:9/hooks", "post.published");
        String eventId = sendTest(push.id());
        as(workspace, Mode.TEST)
                .get("/webhooks/" + push.id() + "/events")
                .then()
                .statusCode(200)
                .body("data.id", containsInAnyOrder(eventId));
        as(workspace, Mode.LIVE)
                .get("/webhooks/" + push.id() + "/events")
                .then()
                .statusCode(404);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/webhooks/" + push.id() + "/events")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.TEST)
                .queryParam("cursor", "not-a-cursor")
                .get("/webhooks/" + push.id() + "/events")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
    }

    private String sendTest(String endpointId) {
        return as(workspace, Mode.TEST)
                .post("/webhooks/" + endpointId + "/test")
                .then()
                .statusCode(202)
                .extract()
                .path("data.event_id");
    }
}
