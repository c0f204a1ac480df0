package dev.herald.webhooks.rest;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.await;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.finalized;
import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.Receiver.Answer;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /deliveries} and {@code POST /deliveries/{id}/retry}: filters, paging, tenancy, refusals. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class DeliveryResourceTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Test
    void deliveriesAreListedNewestFirstFilteredAndPagedWithoutSecretsOrBodiesBeyondTheRecord() throws Exception {
        try (Receiver ok = new Receiver();
                Receiver failing = new Receiver().otherwise(Answer.status(500))) {
            Registered good = register(workspace, Mode.TEST, ok.url(), "post.published", "post.failed");
            Registered bad = register(workspace, Mode.TEST, failing.url(), "post.published");
            send(
                    finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED),
                    finalized(workspace, Mode.TEST, PostFinalizedEvent.FAILED));
            await(
                    "both deliveries of the good endpoint succeeded",
                    () -> deliveriesOf(good.id()).stream()
                                    .filter(row -> "succeeded".equals(row.get("status")))
                                    .count()
                            == 2);
            await(
                    "the bad endpoint's delivery failed",
                    () -> deliveriesOf(bad.id()).stream().anyMatch(row -> "failed".equals(row.get("status"))));

            JsonPath all = as(workspace, Mode.TEST)
                    .get("/deliveries")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(all.getList("data")).hasSize(3);
            assertThat(all.getMap("data[0]").keySet())
                    .containsExactlyInAnyOrder(
                            "id",
                            "event_id",
                            "event_type",
                            "endpoint_id",
                            "status",
                            "attempts",
                            "last_response_status",
                            "last_error",
                            "last_response_body",
                            "next_attempt_at",
                            "created_at",
                            "updated_at",
                            "delivered_at");
            assertThat(all.getList("data.id", String.class)).allMatch(id -> id.matches("^dlv_[a-f0-9]{24}$"));

            as(workspace, Mode.TEST)
                    .queryParam("status", "failed")
                    .get("/deliveries")
                    .then()
                    .body("data.endpoint_id", containsInAnyOrder(bad.id()))
                    .body("data[0].attempts", equalTo(5))
                    .body("data[0].last_response_status", equalTo(500))
                    .body("data[0].last_error", equalTo("The endpoint answered 500."))
                    .body("data[0].last_response_body", equalTo("{\"ok\":false}"));
            as(workspace, Mode.TEST)
                    .queryParam("endpoint_id", good.id())
                    .queryParam("status", "succeeded")
                    .get("/deliveries")
                    .then()
                    .body("data.size()", equalTo(2))
                    .body("data.event_type", containsInAnyOrder("post.published", "post.failed"));
            String eventId = all.getString("data.find { it.endpoint_id == '" + bad.id() + "' }.event_id");
            as(workspace, Mode.TEST)
                    .queryParam("event_id", eventId)
                    .get("/deliveries")
                    .then()
                    .body("data.endpoint_id", containsInAnyOrder(good.id(), bad.id()));

            JsonPath page = as(workspace, Mode.TEST)
                    .queryParam("limit", 2)
                    .get("/deliveries")
                    .then()
                    .body("meta.has_more", equalTo(true))
                    .extract()
                    .jsonPath();
            assertThat(page.getList("data.id"))
                    .containsExactlyElementsOf(all.getList("data.id").subList(0, 2));
            as(workspace, Mode.TEST)
                    .queryParam("limit", 2)
                    .queryParam("cursor", page.getString("meta.next_cursor"))
                    .get("/deliveries")
                    .then()
                    .body("data.id", containsInAnyOrder(all.getList("data.id").get(2)))
                    .body("meta.has_more", equalTo(false));
            // A cursor is bound to its filters.
            as(workspace, Mode.TEST)
                    .queryParam("status", "failed")
                    .queryParam("cursor", page.getString("meta.next_cursor"))
                    .get("/deliveries")
                    .then()
                    .statusCode(400)
                    .body("error.code", equalTo("invalid_cursor"));
            as(workspace, Mode.TEST).get("/deliveries").then().body("data[0]", not(hasKey("secret")));
        }
    }

    @Test
    void badFiltersAreInvalidRequestsNamingTheParameter() {
        as(workspace, Mode.TEST)
                .queryParam("status", "delivered")
                .get("/deliveries")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("status"));
        as(workspace, Mode.TEST)
                .queryParam("endpoint_id", "acc_000000000000000000000000")
                .get("/deliveries")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("endpoint_id"));
        as(workspace, Mode.TEST)
                .queryParam("event_id", "nope")
                .get("/deliveries")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("event_id"));
        as(workspace, Mode.TEST)
                .queryParam("limit", "x")
                .get("/deliveries")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/deliveries?limit=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
    }

    @Test
    void anotherTenantsDeliveriesAndEndpointsAreInvisible() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
            send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
            await(
                    "delivered",
                    () -> deliveriesOf(endpoint.id()).stream().anyMatch(row -> "succeeded".equals(row.get("status"))));
            String deliveryId = (String) deliveriesOf(endpoint.id()).get(0).get("id");

            String other = ResourceIds.newId(IdPrefix.WORKSPACE);
            as(other, Mode.TEST).get("/deliveries").then().statusCode(200).body("data.size()", equalTo(0));
            as(workspace, Mode.LIVE).get("/deliveries").then().statusCode(200).body("data.size()", equalTo(0));
            as(other, Mode.TEST)
                    .queryParam("endpoint_id", endpoint.id())
                    .get("/deliveries")
                    .then()
                    .statusCode(404)
                    .body("error.code", equalTo("not_found"));
            as(other, Mode.TEST)
                    .post("/deliveries/" + deliveryId + "/retry")
                    .then()
                    .statusCode(404);
            as(workspace, Mode.TEST)
                    .post("/deliveries/dlv_000000000000000000000000/retry")
                    .then()
                    .statusCode(404);
        }
    }

    @Test
    void onlyAFailedDeliveryCanBeRetried() throws Exception {
        try (Receiver receiver = new Receiver().otherwise(Answer.never())) {
            Registered endpoint = register(workspace, Mode.TEST, receiver.url(), "post.published");
            send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));
            await("a delivery exists", () -> !deliveriesOf(endpoint.id()).isEmpty());
            String deliveryId = (String) deliveriesOf(endpoint.id()).get(0).get("id");
            as(workspace, Mode.TEST)
                    .post("/deliveries/" + deliveryId + "/retry")
                    .then()
                    .statusCode(409)
                    .body("error.code", equalTo("conflict"))
                    .body("error.details.reason", equalTo("delivery_not_failed"))
                    .body("error.details.status", equalTo("pending"));
            as(workspace, Mode.TEST)
                    .body("{\"force\":true}")
                    .post("/deliveries/" + deliveryId + "/retry")
                    .then()
                    .statusCode(422);

            // A failed delivery of a disabled endpoint stays failed.
            as(workspace, Mode.TEST).delete("/webhooks/" + endpoint.id()).then().statusCode(200);
            await(
                    "the delivery failed",
                    () -> "failed".equals(deliveriesOf(endpoint.id()).get(0).get("status")));
            as(workspace, Mode.TEST)
                    .post("/deliveries/" + deliveryId + "/retry")
                    .then()
                    .statusCode(409)
                    .body("error.details.reason", equalTo("endpoint_disabled"));
            assertThat(deliveriesOf(endpoint.id()))
                    .extracting(row -> row.get("status"))
                    .containsExactly("failed");
        }
    }

    @Test
    void listingWithoutDeliveriesIsEmpty() {
        as(workspace, Mode.TEST)
                .get("/deliveries")
                .then()
                .statusCode(200)
                .body("data", equalTo(List.of()))
                .body("meta.has_more", equalTo(false));
    }
}
