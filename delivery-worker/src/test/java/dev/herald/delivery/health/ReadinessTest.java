package dev.herald.delivery.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.herald.common.auth.RsaKeys;
import dev.herald.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.security.KeyPair;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A worker whose PostgreSQL and Kafka cannot be reached is alive but not ready: Kubernetes stops routing to it and
 * does not restart it (a restart would not bring the database back). Both addresses are a closed local port, so the
 * checks fail at once; Flyway is off, since it would stop the start itself. The same Quarkus checks (the reactive
 * datasource's and SmallRye Reactive Messaging's Kafka readiness) run in every service.
 */
@QuarkusTest
@TestProfile(ReadinessTest.NothingReachable.class)
class ReadinessTest {

    public static class NothingReachable implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            KeyPair keys = RsaKeys.generate();
            Map<String, String> config = new java.util.HashMap<>(TestTokens.config(keys));
            config.putAll(Map.of(
                    "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:1/herald_delivery",
                    "quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/herald_delivery",
                    "quarkus.flyway.migrate-at-start", "false",
                    "kafka.bootstrap.servers", "127.0.0.1:1"));
            return config;
        }
    }

    @Test
    void withoutItsDatabaseAndBrokerTheWorkerIsAliveButNotReady() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/ready")
                .then()
                .statusCode(503)
                .body("status", equalTo("DOWN"))
                .body(
                        "checks.find { it.name == 'Reactive PostgreSQL connections health check' }.status",
                        equalTo("DOWN"))
                .body(
                        "checks.find { it.name == 'SmallRye Reactive Messaging - readiness check' }.status",
                        equalTo("DOWN"))
                .body("checks.name", hasItem("SmallRye Reactive Messaging - readiness check"));
    }
}
