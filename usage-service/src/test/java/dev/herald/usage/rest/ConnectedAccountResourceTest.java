package dev.herald.usage.rest;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.json;
import static dev.herald.usage.support.UsageTestSupport.usage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.usage.support.MutableClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class ConnectedAccountResourceTest {
    @Inject
    MutableClock clock;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        clock.set(Instant.parse("2026-03-10T12:00:00Z"));
    }

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private Response connect(Mode mode, String accountId, boolean newConnection) {
        return as(workspace, mode)
                .body("{\"account_id\":\"" + accountId + "\",\"new_connection\":" + newConnection + "}")
                .post("/internal/connected-accounts");
    }

    private void disconnect(Mode mode, String accountId) {
        as(workspace, mode)
                .delete("/internal/connected-accounts/" + accountId)
                .then()
                .statusCode(200)
                .body("data.account_id", equalTo(accountId));
    }

    @Test
    void aFreePlanHoldsTwoLiveAccountsAndTheThirdIsRefusedWithTheSpecsDetails() {
        connect(Mode.LIVE, "acc_1", true)
                .then()
                .statusCode(201)
                .body("data.account_id", equalTo("acc_1"))
                .body("data.connected", equalTo(1))
                .body("data.limit", equalTo(2));
        connect(Mode.LIVE, "acc_2", true).then().statusCode(201).body("data.connected", equalTo(2));

        JsonNode refused = json(connect(Mode.LIVE, "acc_3", true)
                .then()
                .statusCode(409)
                .extract()
                .response());
        assertThat(refused.get("error").get("code").asText()).isEqualTo("account_limit_reached");
        assertThat(refused.get("error").get("details")).isEqualTo(json("""
                {"mode":"live","plan":"free","limit":2,"connected":2,"upgrade_url":"%s"}""".formatted(
                        refused.get("error").get("details").get("upgrade_url").asText())));
        assertThat(refused.get("error").get("details").get("upgrade_url").asText())
                .startsWith("http");

        JsonNode now = usage(workspace, Mode.LIVE);
        assertThat(now.get("accounts")).isEqualTo(json("{\"used\":2,\"limit\":2,\"remaining\":0}"));
        // The refusal charged nothing: two new connections, not three.
        assertThat(now.get("new_connections").get("used").asLong()).isEqualTo(2);
    }

    @Test
    void reauthorizingAConnectedAccountIsFreeAndDisconnectingFreesItsSlot() {
        connect(Mode.LIVE, "acc_1", true).then().statusCode(201);
        connect(Mode.LIVE, "acc_2", true).then().statusCode(201);
        connect(Mode.LIVE, "acc_1", true).then().statusCode(200).body("data.connected", equalTo(2));
        assertThat(usage(workspace, Mode.LIVE)
                        .get("new_connections")
                        .get("used")
                        .asLong())
                .isEqualTo(2);

        disconnect(Mode.LIVE, "acc_2");
        disconnect(Mode.LIVE, "acc_2");
        assertThat(usage(workspace, Mode.LIVE).get("accounts").get("used").asLong())
                .isEqualTo(1);
        // Disconnected to connected is a new connection again.
        connect(Mode.LIVE, "acc_2", true).then().statusCode(201);
        assertThat(usage(workspace, Mode.LIVE)
                        .get("new_connections")
                        .get("used")
                        .asLong())
                .isEqualTo(3);
    }

    @Test
    void theFifthNewConnectionOfTheMonthOnAFreePlanIsRefusedWithUsageDetails() {
        for (String id : List.of("acc_1", "acc_2")) {
            connect(Mode.LIVE, id, true).then().statusCode(201);
            disconnect(Mode.LIVE, id);
        }
        connect(Mode.LIVE, "acc_3", true).then().statusCode(201);
        connect(Mode.LIVE, "acc_4", true).then().statusCode(201);
        disconnect(Mode.LIVE, "acc_4");

        Response refused = connect(Mode.LIVE, "acc_5", true);
        refused.then()
                .statusCode(429)
                .header(
                        "Retry-After",
                        equalTo(Long.toString(java.time.Duration.between(
                                        Instant.parse("2026-03-10T12:00:00Z"), Instant.parse("2026-04-01T00:00:00Z"))
                                .toSeconds())))
                .body("error.code", equalTo("usage_limit_exceeded"))
                .body("error.details.metric", equalTo("new_connections"))
                .body("error.details.mode", equalTo("live"))
                .body("error.details.plan", equalTo("free"))
                .body("error.details.limit", equalTo(4))
                .body("error.details.used", equalTo(4))
                .body("error.details.reserved", equalTo(0))
                .body("error.details.remaining", equalTo(0))
                .body("error.details.reset_at", equalTo("2026-04-01T00:00:00Z"));
        // Refused means nothing changed: one account connected, no slot for acc_5.
        assertThat(usage(workspace, Mode.LIVE).get("accounts").get("used").asLong())
                .isEqualTo(1);

        // A new month brings four new connections back.
        clock.set(Instant.parse("2026-04-01T00:00:01Z"));
        connect(Mode.LIVE, "acc_5", true).then().statusCode(201);
    }

    @Test
    void testModeHoldsTenAccountsWithoutNewConnectionAllowanceAndApartFromLive() {
        for (int i = 1; i <= 10; i++) {
            connect(Mode.TEST, "acc_t" + i, true).then().statusCode(201);
        }
        connect(Mode.TEST, "acc_t11", true)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("account_limit_reached"))
                .body("error.details.mode", equalTo("test"))
                .body("error.details.limit", equalTo(10))
                .body("error.details.connected", equalTo(10));
        assertThat(usage(workspace, Mode.TEST).get("new_connections").isNull()).isTrue();
        assertThat(usage(workspace, Mode.LIVE).get("accounts").get("used").asLong())
                .isZero();
        connect(Mode.LIVE, "acc_t11", true).then().statusCode(201);
    }

    @Test
    void concurrentConnectionsNeverOvershootTheLimit() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String id = "acc_race" + i;
                answers.add(pool.submit(
                        (Callable<Integer>) () -> connect(Mode.LIVE, id, true).statusCode()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
            assertThat(statuses).filteredOn(status -> status == 201).hasSize(2);
            assertThat(statuses).filteredOn(status -> status == 409).hasSize(4);
        } finally {
            pool.shutdownNow();
        }
        assertThat(usage(workspace, Mode.LIVE).get("accounts").get("used").asLong())
                .isEqualTo(2);
    }

    @Test
    void badBodiesAreRefusedFieldByField() {
        as(workspace, Mode.LIVE)
                .body("{\"account_id\":\"\",\"extra\":1}")
                .post("/internal/connected-accounts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        org.hamcrest.Matchers.containsInAnyOrder("extra", "account_id", "new_connection"));
    }
}
