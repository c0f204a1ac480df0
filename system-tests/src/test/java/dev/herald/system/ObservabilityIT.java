package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.awaitFinal;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.post;
import static dev.herald.system.PostsPipelineIT.testKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees of one publication: the delivery and webhook series on the services' {@code /q/metrics}, and
 * the trace id the gateway answered ({@code x-trace-id}) in delivery-worker's log line for that very post, which
 * means the trace travelled gateway -> posts-service -> outbox -> Kafka -> delivery-worker.
 */
class ObservabilityIT {
    private static final Pattern TRACE_ID = Pattern.compile("^[0-9a-f]{32}$");

    @Test
    void aPublishedPostShowsInTheMetricsAndTheGatewaysTraceIdReachesTheWorkersLog() throws Exception {
        String key = testKey("observability");
        try (WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 200)) {
            WebhooksIT.register(key, receiver.url(), "post.published");
            String account = account(key, "linkedin", "observed");

            Response accepted = post(key, UUID.randomUUID().toString(), linkedIn(account));
            assertThat(accepted.statusCode()).isEqualTo(202);
            String traceId = accepted.header("x-trace-id");
            assertThat(traceId).as("the gateway names the request's trace").matches(TRACE_ID);
            assertThat(traceId).isNotEqualTo("00000000000000000000000000000000");
            String postId = accepted.jsonPath().getString("data.id");

            assertThat(awaitFinal(key, postId).getString("data.status")).isEqualTo("published");
            receiver.awaitRequests(1, 30_000);

            String delivery = awaitSeries(
                    "delivery-worker",
                    "herald_deliveries_total{mode=\"test\",outcome=\"published\",platform=\"linkedin\"}");
            assertThat(valueOf(delivery)).isGreaterThanOrEqualTo(1.0);
            assertThat(
                            awaitSeries(
                                    "delivery-worker",
                                    "herald_delivery_attempts_seconds_count{mode=\"test\",outcome=\"published\",platform=\"linkedin\"}"))
                    .isNotEmpty();
            String webhook = awaitSeries("webhooks-service", "herald_webhook_attempts_total{outcome=\"succeeded\"}");
            assertThat(valueOf(webhook)).isGreaterThanOrEqualTo(1.0);
            assertThat(awaitSeries(
                            "usage-service",
                            "herald_usage_reservations_total{meter=\"publications\",outcome=\"reserved\"}"))
                    .isNotEmpty();
            assertThat(awaitSeries("posts-service", "herald_outbox_pending ")).isNotEmpty();
            // Request series are labelled by route template, so ids never become label values.
            assertThat(metrics("api-gateway"))
                    .contains("http_server_requests_seconds_count")
                    .doesNotContain(postId);

            // The worker logs each final outcome with the trace it continued.
            String workerLog = Files.readString(RunningSuite.get().logFile("delivery-worker"));
            assertThat(workerLog.lines().filter(line -> line.contains("post " + postId) && line.contains("published")))
                    .as("delivery-worker's outcome line for %s", postId)
                    .anySatisfy(line -> assertThat(line).contains("trace " + traceId));
        }
    }

    private static String metrics(String module) {
        int port = RunningSuite.get().managementPorts().get(module);
        return RestAssured.given()
                .baseUri("http://127.0.0.1:" + port)
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** The first line of {@code module}'s metrics starting with {@code series}, waiting up to 15 s for it to appear. */
    private static String awaitSeries(String module, String series) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (true) {
            String found = metrics(module)
                    .lines()
                    .filter(line -> line.startsWith(series))
                    .findFirst()
                    .orElse("");
            if (!found.isEmpty() || System.currentTimeMillis() > deadline) {
                assertThat(found).as("%s on %s/q/metrics", series, module).isNotEmpty();
                return found;
            }
            Thread.sleep(300);
        }
    }

    private static double valueOf(String line) {
        Matcher matcher = Pattern.compile(" ([0-9.eE+-]+)$").matcher(line);
        assertThat(matcher.find()).as("a value in %s", line).isTrue();
        return Double.parseDouble(matcher.group(1));
    }
}
