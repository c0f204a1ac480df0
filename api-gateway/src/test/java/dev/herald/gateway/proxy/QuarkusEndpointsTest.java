package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Quarkus's own endpoints under {@code /q} on the gateway's public port: the probes and the Prometheus text answer,
 * nothing else there does (OWASP API9, an inventory of exactly the documented routes).
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class QuarkusEndpointsTest {
    @Test
    void theProbesAndTheMetricsAnswerOnThePublicPort() {
        for (String path : List.of("/q/health/live", "/q/health/ready", "/q/health/started")) {
            given().get(path).then().statusCode(200).body("status", equalTo("UP"));
        }
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .contains("jvm_");
        assertThat(ApiGatewayRoutes.PUBLIC_Q_PATHS).hasSize(4);
    }

    @Test
    void everythingElseUnderQIsNotFoundInTheEnvelope() {
        for (String path : List.of(
                "/q",
                "/q/",
                "/q/health",
                "/q/health/",
                "/q/health/well",
                "/q/health/group",
                "/q/health/ready/x",
                "/q/dev",
                "/q/dev-ui",
                "/q/dev-ui/extensions",
                "/q/openapi",
                "/q/swagger-ui",
                "/q/info",
                "/q/metrics/json",
                "/q/%6detrics",
                "/q/health/%72eady")) {
            given().urlEncodingEnabled(false)
                    .get(path)
                    .then()
                    .statusCode(404)
                    .contentType(startsWith("application/json"))
                    .body("error.code", equalTo("not_found"))
                    .body("request_id", startsWith("req_"));
        }
        given().post("/q/health/ready").then().statusCode(404).body("error.code", equalTo("not_found"));
    }
}
