package dev.herald.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.sdk.WebhookVerifier;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code ./herald listen --forward-to <url>}: Herald's webhooks on a developer's machine, the way {@code stripe listen}
 * works, against a local or a remote Herald alike (no inbound connection: the events are polled). It registers a
 * temporary pull endpoint through the public API ({@code POST /webhooks}, {@code kind: pull}), polls its events feed
 * ({@code GET /webhooks/{id}/events}) every second, prints each new event and POSTs it to the local URL signed as
 * Herald signs deliveries ({@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature} with the
 * endpoint's secret, which it prints at start), and disables the endpoint ({@code DELETE /webhooks/{id}}) when it is
 * stopped (Ctrl-C or SIGTERM: a JVM shutdown hook). A local answer is printed, never retried.
 */
final class ListenCommand {
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final ListenOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final Set<String> seen = new HashSet<>();
    private volatile boolean stopping;

    ListenCommand(ListenOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    int run() throws IOException, InterruptedException {
        ObjectNode request = json.createObjectNode()
                .put("kind", "pull")
                .put("description", "herald listen, forwarding to " + options.forwardTo());
        options.events().forEach(request.putArray("events")::add);
        JsonNode created = api("POST", "/webhooks", json.writeValueAsString(request), 201);
        String endpointId = created.path("data").path("id").asText();
        String secret = created.path("data").path("secret").asText();
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(endpointId, main), "herald-listen-stop"));
        out.println("Ready. Listening on pull endpoint " + endpointId + " (" + options.mode() + " mode, "
                + options.apiBase() + ").");
        out.println("Your webhook signing secret is " + secret + " (it signs what is forwarded).");
        out.println("Forwarding " + String.join(", ", options.events()) + " and webhook.test to " + options.forwardTo()
                + ". Ctrl-C stops and deletes the endpoint.");
        out.flush();
        while (!stopping) {
            try {
                for (JsonNode event : newEvents(endpointId)) {
                    forward(event, secret);
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                break;
            } catch (IOException e) {
                if (!stopping) {
                    err.println("herald listen: " + e.getMessage() + " (trying again)");
                    Thread.sleep(POLL_INTERVAL.toMillis());
                }
            }
        }
        return 0;
    }

    /**
     * The events not forwarded yet, oldest first. The feed runs newest first: its first page, then the next ones while
     * a page holds nothing seen (more than a page arrived between two polls).
     */
    private List<JsonNode> newEvents(String endpointId) throws IOException, InterruptedException {
        List<JsonNode> fresh = new ArrayList<>();
        String cursor = null;
        while (true) {
            String query =
                    "/webhooks/" + endpointId + "/events?limit=100" + (cursor == null ? "" : "&cursor=" + cursor);
            JsonNode page = api("GET", query, null, 200);
            boolean reachedSeen = false;
            for (JsonNode event : page.path("data")) {
                if (seen.contains(event.path("id").asText())) {
                    reachedSeen = true;
                    break;
                }
                fresh.add(event);
            }
            JsonNode next = page.path("meta").path("next_cursor");
            if (reachedSeen || !page.path("meta").path("has_more").asBoolean() || next.isNull()) {
                break;
            }
            cursor = next.asText();
        }
        Collections.reverse(fresh);
        return fresh;
    }

    private void forward(JsonNode event, String secret) throws InterruptedException {
        String id = event.path("id").asText();
        seen.add(id);
        out.println(Instant.now() + "  --> " + event.path("type").asText() + " [" + id + "]");
        try {
            byte[] body = json.writeValueAsBytes(event);
            long timestamp = Instant.now().getEpochSecond();
            HttpResponse<Void> answer = http.send(
                    HttpRequest.newBuilder(URI.create(options.forwardTo()))
                            .timeout(TIMEOUT)
                            .header("content-type", "application/json")
                            .header(WebhookVerifier.ID_HEADER, id)
                            .header(WebhookVerifier.TIMESTAMP_HEADER, Long.toString(timestamp))
                            .header(WebhookVerifier.SIGNATURE_HEADER, WebhookVerifier.sign(secret, id, timestamp, body))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            out.println(
                    Instant.now() + "  <-- " + answer.statusCode() + " POST " + options.forwardTo() + " [" + id + "]");
        } catch (IOException e) {
            out.println(Instant.now() + "  <-- no answer from " + options.forwardTo() + " [" + id + "]: " + e);
        }
        out.flush();
    }

    /** On Ctrl-C or SIGTERM: the endpoint is disabled, so Herald stops keeping events for it. */
    private void stop(String endpointId, Thread main) {
        stopping = true;
        main.interrupt();
        try {
            api("DELETE", "/webhooks/" + endpointId, null, 200);
            out.println("Deleted endpoint " + endpointId + ".");
        } catch (IOException e) {
            err.println("herald listen: could not delete endpoint " + endpointId + " (" + e.getMessage()
                    + "); delete it with DELETE /webhooks/" + endpointId + ".");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
    }

    private JsonNode api(String method, String path, String body, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(options.apiBase() + path))
                .timeout(TIMEOUT)
                .header("Authorization", "Bearer " + options.key())
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("content-type", "application/json");
        }
        HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != expected) {
            throw new ApiAnswerException(
                    method + " " + path + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return json.readTree(answer.body());
    }

    /** An answer of the API other than the one expected. */
    static final class ApiAnswerException extends IOException {
        ApiAnswerException(String message) {
            super(message);
        }
    }
}
