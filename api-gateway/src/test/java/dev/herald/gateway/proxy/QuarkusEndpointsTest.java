package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Quarkus's own endpoints under {@code /q}: the probes and the Prometheus text answer on the management interface's
 * port, and nothing under {@code /q} answers on the public port (OWASP API9, an inventory of exactly the documented
 * routes; docs/security.md).
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class QuarkusEndpointsTest {
    private static final List<String> PROBES = List.of("/q/health/live", "/q/health/ready", "/q/health/started");
    private static final String METRICS = "/q/metrics";

    /** The management interface, at its root path {@code /q}. */
    @TestHTTPResource(management = true)
    URL management;

    private RequestSpecification onTheManagementPort() {
        return given().baseUri("http://" + management.getHost()).port(management.getPort());
    }

    @Test
    void theProbesAndTheMetricsAnswerOnTheManagementPortOnly() {
        for (String path : Stream.concat(PROBES.stream(), Stream.of(METRICS)).toList()) {
            given().get(path)
                    .then()
                    .statusCode(404)
                    .contentType(startsWith("application/json"))
                    .body("error.code", equalTo("not_found"))
                    .body("request_id", startsWith("req_"));
        }
        assertThat(management.getPort()).isNotEqualTo(RestAssured.port);
        for (String path : PROBES) {
            onTheManagementPort().get(path).then().statusCode(200).body("status", equalTo("UP"));
        }
        assertThat(onTheManagementPort()
                        .get(METRICS)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .contains("jvm_");
    }

    @Test
    void nothingElseUnderQAnswersOnThePublicPortEither() {
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
