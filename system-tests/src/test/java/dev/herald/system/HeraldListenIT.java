package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.sdk.WebhookVerifier;
import io.restassured.path.json.JsonPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./herald listen} as a developer runs it against a Herald it names by URL and key (the running suite here,
 * reached only through its public API): the {@code webhook.test} of its temporary pull endpoint reaches a local
 * receiver signed with the secret it printed, and stopping it (SIGTERM, as Ctrl-C would) disables that endpoint.
 */
class HeraldListenIT {
    private static final Pattern READY = Pattern.compile("Listening on pull endpoint (whe_[0-9a-f]{24})");
    private static final Pattern SECRET = Pattern.compile("signing secret is (whsec_\\S+) ");

    @Test
    void aTestEventIsForwardedSignedToTheLocalReceiverAndTheEndpointIsGoneAfterwards() throws Exception {
        String workspace = RunningSuite.newWorkspace("Listen Co");
        String key = RunningSuite.newKey(workspace, "test");
        Path root = Path.of(System.getProperty("herald.root", "..")).toAbsolutePath();
        try (WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 200)) {
            Process listen = new ProcessBuilder(
                            root.resolve("herald").toString(),
                            "listen",
                            "--forward-to",
                            receiver.url(),
                            "--url",
                            RunningSuite.get().gatewayUrl(),
                            "--key",
                            key)
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> readLines(listen, lines), "herald-listen-output");
            reader.setDaemon(true);
            reader.start();
            try {
                String endpointId = awaitMatch(lines, READY);
                String secret = awaitMatch(lines, SECRET);
                assertThat(as(key).get("/webhooks/" + endpointId)
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getString("data.kind"))
                        .isEqualTo("pull");

                String eventId = as(key).post("/webhooks/" + endpointId + "/test")
                        .then()
                        .statusCode(202)
                        .extract()
                        .path("data.event_id");
                List<WebhooksIT.Receiver.Request> received = receiver.awaitRequests(1, 30_000);
                assertThat(received).as("what herald listen forwarded").hasSize(1);
                WebhooksIT.Receiver.Request request = received.get(0);
                // As a receiver checks it: common's verifier, with the secret listen printed.
                assertThat(new WebhookVerifier(List.of(secret))
                                .verify(
                                        request.body(),
                                        request.header("webhook-id"),
                                        request.header("webhook-timestamp"),
                                        request.header("webhook-signature")))
                        .isEqualTo(eventId);
                JsonPath event = request.verify(secret);
                assertThat(event.getString("id")).isEqualTo(eventId);
                assertThat(event.getString("type")).isEqualTo("webhook.test");
                assertThat(event.getString("data.endpoint_id")).isEqualTo(endpointId);
                assertThat(awaitMatch(lines, Pattern.compile("<-- (200) POST"))).isEqualTo("200");

                listen.destroy();
                assertThat(listen.waitFor(30, TimeUnit.SECONDS))
                        .as("listen stops on SIGTERM")
                        .isTrue();
                JsonPath endpoint = as(key).get("/webhooks/" + endpointId)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                assertThat(endpoint.getString("data.status")).isEqualTo("disabled");
                assertThat(endpoint.getString("data.disabled_reason")).isEqualTo("requested");
            } finally {
                listen.destroyForcibly();
            }
        }
    }

    private static void readLines(Process process, BlockingQueue<String> lines) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                System.out.println("[herald listen] " + line);
                lines.add(line);
            }
        } catch (IOException ignored) {
            // The process ended.
        }
    }

    /** The first group of the first line (from now on) the pattern finds, within 60 s (listen may build first). */
    private static String awaitMatch(BlockingQueue<String> lines, Pattern pattern) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line != null) {
                Matcher matcher = pattern.matcher(line);
                if (matcher.find()) {
                    return matcher.group(1);
                }
            }
        }
        throw new AssertionError("herald listen printed nothing matching " + pattern + " within 60 s");
    }
}
