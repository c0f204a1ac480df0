package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.herald.local.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Stands in for webhooks-service with canned answers in the real API's JSON shapes: endpoints kept in memory per
 * workspace and mode (from the internal token), a url that is neither https nor loopback refused as the service does
 * (422 {@code validation_failed} on {@code url}), an empty {@code events} likewise. Each endpoint starts with two
 * deliveries, a failed one (500, with a body) on the first page and a succeeded one behind the cursor {@code older}.
 * {@link #REQUESTS} records "METHOD path body" of every request.
 */
public class WebhooksUpstream implements QuarkusTestResourceLifecycleManager {
    static final List<String> REQUESTS = new CopyOnWriteArrayList<>();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String T = "2026-11-01T10:00:00Z";
    private final Map<String, ObjectNode> endpoints = new ConcurrentHashMap<>();
    private final Map<String, List<ObjectNode>> deliveries = new ConcurrentHashMap<>();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.start();
        String nobody = "http://127.0.0.1:" + FreePorts.next();
        return Map.of(
                "herald.services.webhooks.url",
                        "http://127.0.0.1:" + server.getAddress().getPort(),
                "herald.services.profiles.url", nobody,
                "herald.services.posts.url", nobody,
                "herald.services.usage.url", nobody,
                "herald.services.accounts.url", nobody);
    }

    /**
     * Started after the resources every test class gets (EchoUpstream, order 0): sequential resources start in this
     * order and a later one's configuration wins, so webhooks-service is this one and not the echo.
     */
    @Override
    public int order() {
        return 100;
    }

    private void answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        String query = exchange.getRequestURI().getQuery();
        String raw = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        REQUESTS.add(method + " " + path + (raw.isEmpty() ? "" : " " + raw));
        String tenant = tenant(exchange.getRequestHeaders().getFirst("authorization"));
        String[] parts = path.substring(1).split("/");
        try {
            if (parts[0].equals("webhooks") && parts.length == 1 && method.equals("POST")) {
                create(exchange, tenant, JSON.readTree(raw));
            } else if (parts[0].equals("webhooks") && parts.length == 1) {
                ArrayNode list = JSON.createArrayNode();
                endpoints.entrySet().stream()
                        .filter(entry -> entry.getKey().startsWith(tenant + "/"))
                        .forEach(entry -> list.add(entry.getValue()));
                send(exchange, 200, page(list, null));
            } else if (parts[0].equals("webhooks")) {
                ObjectNode endpoint = endpoints.get(tenant + "/" + parts[1]);
                if (endpoint == null) {
                    send(exchange, 404, error("not_found", "No such webhook endpoint.", null));
                } else {
                    onEndpoint(exchange, method, parts, endpoint, raw);
                }
            } else if (parts[0].equals("deliveries") && parts.length == 1) {
                String endpointId = query.replaceAll(".*endpoint_id=(whe_[a-f0-9]+).*", "$1");
                List<ObjectNode> all = deliveries.getOrDefault(endpointId, List.of());
                boolean older = query.contains("cursor=older");
                ArrayNode list = JSON.createArrayNode();
                (older ? all.subList(all.size() - 1, all.size()) : all.subList(0, all.size() - 1)).forEach(list::add);
                send(exchange, 200, page(list, older ? null : "older"));
            } else if (parts[0].equals("deliveries") && parts.length == 3) {
                send(exchange, 202, data(delivery(parts[1], "evt_" + hex(), "post.failed", "pending", null, null)));
            } else {
                send(exchange, 404, error("not_found", "No such operation.", null));
            }
        } catch (RuntimeException e) {
            send(exchange, 500, error("internal_error", e.toString(), null));
        }
    }

    private void create(HttpExchange exchange, String tenant, JsonNode body) throws IOException {
        String url = body.path("url").asText("");
        ArrayNode errors = JSON.createArrayNode();
        if (!url.startsWith("https://") && !url.startsWith("http://127.0.0.1")) {
            errors.add(fieldError("url", "invalid_format", "url must be an absolute https URL."));
        }
        if (body.path("events").isEmpty()) {
            errors.add(fieldError("events", "too_short", "events must name at least one event."));
        }
        if (!errors.isEmpty()) {
            send(exchange, 422, error("validation_failed", "The request body is not valid.", errors));
            return;
        }
        String id = "whe_" + hex();
        ObjectNode endpoint = JSON.createObjectNode()
                .put("id", id)
                .put("url", url)
                .put("description", body.path("description").textValue())
                .put("status", "enabled")
                .putNull("disabled_reason")
                .put("mode", tenant.substring(tenant.indexOf(':') + 1))
                .put("created_at", T)
                .put("updated_at", T)
                .putNull("disabled_at");
        endpoint.set("events", body.path("events"));
        endpoints.put(tenant + "/" + id, endpoint);
        List<ObjectNode> own = new CopyOnWriteArrayList<>();
        own.add(delivery("dlv_" + hex(), "evt_" + hex(), "post.failed", "failed", 500, "receiver exploded"));
        own.add(delivery("dlv_" + hex(), "evt_" + hex(), "post.published", "succeeded", 204, null));
        deliveries.put(id, own);
        send(exchange, 201, data(endpoint.deepCopy().put("secret", secret())));
    }

    private void onEndpoint(HttpExchange exchange, String method, String[] parts, ObjectNode endpoint, String raw)
            throws IOException {
        String action = parts.length > 2 ? parts[2] : "";
        switch (method + " " + action) {
            case "GET " -> send(exchange, 200, data(endpoint));
            case "PATCH " -> {
                JsonNode body = JSON.readTree(raw);
                if (body.has("events") && body.get("events").isEmpty()) {
                    ArrayNode errors = JSON.createArrayNode()
                            .add(fieldError("events", "too_short", "events must name at least one event."));
                    send(exchange, 422, error("validation_failed", "The request body is not valid.", errors));
                    return;
                }
                endpoint.put("description", body.path("description").textValue());
                endpoint.set("events", body.path("events"));
                send(exchange, 200, data(endpoint));
            }
            case "DELETE " -> {
                endpoint.put("status", "disabled")
                        .put("disabled_reason", "requested")
                        .put("disabled_at", T);
                send(exchange, 200, data(endpoint));
            }
            case "POST rotate-secret" ->
                send(exchange, 200, data(endpoint.deepCopy().put("secret", secret())));
            case "POST test" -> {
                ObjectNode delivery = delivery("dlv_" + hex(), "evt_" + hex(), "webhook.test", "pending", null, null);
                deliveries.get(endpoint.get("id").asText()).add(0, delivery);
                send(exchange, 202, data(delivery));
            }
            default -> send(exchange, 404, error("not_found", "No such operation.", null));
        }
    }

    private static ObjectNode delivery(
            String id, String eventId, String type, String status, Integer responseStatus, String responseBody) {
        ObjectNode delivery = JSON.createObjectNode()
                .put("id", id)
                .put("event_id", eventId)
                .put("event_type", type)
                .put("endpoint_id", "whe_" + hex())
                .put("status", status)
                .put("attempts", responseStatus == null ? 0 : 1)
                .put("last_response_status", responseStatus)
                .put("last_error", status.equals("failed") ? "The receiver answered 500." : null)
                .put("last_response_body", responseBody)
                .put("created_at", T)
                .put("updated_at", T);
        delivery.putNull("next_attempt_at").putNull("delivered_at");
        return delivery;
    }

    private static ObjectNode data(JsonNode data) {
        ObjectNode envelope = JSON.createObjectNode();
        envelope.set("data", data);
        return envelope;
    }

    private static ObjectNode page(ArrayNode items, String nextCursor) {
        ObjectNode envelope = JSON.createObjectNode();
        envelope.set("data", items);
        envelope.putObject("meta").put("next_cursor", nextCursor).put("has_more", nextCursor != null);
        return envelope;
    }

    private static ObjectNode error(String code, String message, ArrayNode errors) {
        ObjectNode envelope = JSON.createObjectNode();
        ObjectNode error = envelope.putObject("error").put("code", code).put("message", message);
        if (errors != null) {
            error.putObject("details").set("errors", errors);
        }
        return envelope;
    }

    private static ObjectNode fieldError(String field, String code, String message) {
        return JSON.createObjectNode().put("field", field).put("code", code).put("message", message);
    }

    private static String secret() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return "whsec_" + Base64.getEncoder().encodeToString(bytes);
    }

    private static String hex() {
        byte[] bytes = new byte[12];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String tenant(String authorization) {
        try {
            String payload = authorization.substring("Bearer ".length()).split("\\.")[1];
            JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(payload));
            return claims.path("wid").asText() + ":" + claims.path("mode").asText();
        } catch (Exception e) {
            return "unknown:test";
        }
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    static List<String> requestsMatching(String prefix) {
        List<String> found = new ArrayList<>();
        REQUESTS.stream().filter(request -> request.startsWith(prefix)).forEach(found::add);
        return found;
    }
}
