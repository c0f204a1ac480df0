package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.local.LocalSuite;
import io.restassured.RestAssured;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The suite as a whole: every service is up, and a service that goes away is 503 at the gateway, quickly. */
@Isolated
class SuiteLifecycleIT {

    @Test
    void everyServiceAnswersItsHealthCheck() {
        LocalSuite suite = RunningSuite.get();
        suite.managementPorts()
                .forEach((module, port) -> RestAssured.given()
                        .baseUri("http://127.0.0.1:" + port)
                        .get("/q/health/ready")
                        .then()
                        .statusCode(200)
                        .body("status", equalTo("UP")));
        assertThat(suite.managementPorts()).hasSize(8);
        // The gateway's on its management port: its public port answers nothing under /q (Api9InventoryIT).
        assertThat(suite.managementPorts().get("api-gateway"))
                .isNotEqualTo(suite.servicePorts().get("api-gateway"));
    }

    @Test
    void aStoppedServiceIsUnavailableUntilItIsBack() {
        LocalSuite suite = RunningSuite.get();
        String key = suite.demoTestKey();
        as(key).get("/profiles").then().statusCode(200);
        suite.stop("profiles-service");
        try {
            Instant started = Instant.now();
            as(key).get("/profiles").then().statusCode(503).body("error.code", equalTo("service_unavailable"));
            assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(5));
        } finally {
            suite.start("profiles-service");
        }
        as(key).get("/profiles").then().statusCode(200);
    }
}
