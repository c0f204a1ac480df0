package dev.herald.delivery.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * usage-service's {@code POST /internal/reservations/{id}/check} on a local HTTP server. Every reservation may
 * be consumed ({@code 200 {"data": reservation}}) unless a test gave it another answer with {@link #answer}
 * (a refusal, or {@link #down} for a service that is not working). Every call is recorded with the internal
 * JWT's claims and the body, for tests to assert on. The real rules are tested in usage-service.
 *
 * <p>Media ingest's calls too: {@code POST /internal/reservations} (201 for a new id, 200 for a known one, growing
 * it when more units are asked, or the answer a test gave the id), {@code .../consume} and {@code .../release}
 * (200), and {@code GET /internal/entitlements} ({@code concurrent_ingests} per workspace, 2 unless
 * {@link #concurrentIngests} said otherwise); recorded as {@link MediaCall}s.
 *
 * <p>Also compresses the worker's timings, so retries and slow sandbox accounts take fractions of a second.
 */
public class FakeUsageService implements QuarkusTestResourceLifecycleManager {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CHECK = Pattern.compile("^/internal/reservations/([^/]+)/check$");
    private static final String PORT_PROPERTY = "herald.test.fake-usage.port";

    /** A canned answer: HTTP status and body. */
    public record Answer(int status, String body) {}

    /** One check the worker made: the reservation, the token's claims and the body it sent. */
    /** {@code traceParent}: the call's {@code traceparent} header, or null. */
    public record Call(String reservationId, JsonNode claims, JsonNode body, String traceParent) {}

    /** A media-ingest call: {@code reserve}, {@code consume} or {@code release} of a reservation, or {@code entitlements}. */
    public record MediaCall(String kind, String reservationId, JsonNode body) {}

    private static final Pattern SETTLE = Pattern.compile("^/internal/reservations/([^/]+)/(consume|release)$");
    private static final Map<String, List<MediaCall>> MEDIA_CALLS = new ConcurrentHashMap<>();
    private static final Map<String, Answer> RESERVE_ANSWERS = new ConcurrentHashMap<>();
    private static final Map<String, Long> RESERVED_UNITS = new ConcurrentHashMap<>();
    private static final Map<String, Integer> CONCURRENT_INGESTS = new ConcurrentHashMap<>();

    /** The answer to {@code POST /internal/reservations} for this id (a refusal); null back to the default. */
    public static void answerReservation(String reservationId, Answer answer) {
        if (answer == null) {
            RESERVE_ANSWERS.remove(reservationId);
        } else {
            RESERVE_ANSWERS.put(reservationId, answer);
        }
    }

    public static void concurrentIngests(String workspaceId, int limit) {
        CONCURRENT_INGESTS.put(workspaceId, limit);
    }

    public static List<MediaCall> mediaCalls(String reservationId) {
        return List.copyOf(MEDIA_CALLS.getOrDefault(reservationId, List.of()));
    }

    /** The kinds of the media calls made for {@code reservationId}, in order ({@code reserve}, {@code consume}, ...). */
    public static List<String> mediaCallKinds(String reservationId) {
        return mediaCalls(reservationId).stream().map(MediaCall::kind).toList();
    }

    private static final Map<String, Answer> ANSWERS = new ConcurrentHashMap<>();
    private static final Map<String, List<Call>> CALLS = new ConcurrentHashMap<>();
    private static HttpServer server;

    public static void answer(String reservationId, Answer answer) {
        ANSWERS.put(reservationId, answer);
    }

    /** Back to the default: the reservation may be consumed. */
    public static void allow(String reservationId) {
        ANSWERS.remove(reservationId);
    }

    public static Answer down() {
        return new Answer(
                503,
                "{\"error\":{\"code\":\"service_unavailable\",\"message\":\"down\",\"details\":{}},"
                        + "\"request_id\":\"req_000000000000000000000000\"}");
    }

    public static Answer refusal(int status, String code, String detailsJson) {
        return new Answer(
                status,
                "{\"error\":{\"code\":\"" + code + "\",\"message\":\"Refused: " + code + ".\",\"details\":"
                        + detailsJson + "},\"request_id\":\"req_000000000000000000000000\"}");
    }

    public static List<Call> calls(String reservationId) {
        return List.copyOf(CALLS.getOrDefault(reservationId, List.of()));
    }

    /**
     * Starts the stand-in in the tests' own class loader (Quarkus loads test resources in another one, whose
     * static state the tests would not see), on the port the resource reserved. Call before each test.
     */
    public static synchronized void ensureStarted() {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.getInteger(PORT_PROPERTY)), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", FakeUsageService::handle);
        server.start();
    }

    @Override
    public Map<String, String> start() {
        int port = dev.herald.local.FreePorts.next();
        System.setProperty(PORT_PROPERTY, Integer.toString(port));
        return Map.of(
                // The REST client's own URL key, so that no other setting of herald.services.usage.url can win.
                "quarkus.rest-client.usage-service.url", "http://127.0.0.1:" + port,
                "herald.delivery.backoff.base", "PT0.05S",
                "herald.delivery.backoff.max", "PT0.2S",
                "herald.delivery.sandbox.slow-delay", "PT1S",
                "herald.delivery.lease", "PT10S",
                "herald.delivery.publish-timeout", "PT5S");
    }

    @Override
    public void stop() {
        // The server belongs to the tests' class loader and stops with the JVM (a daemon dispatcher).
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (handleMedia(exchange, path)) {
                return;
            }
            Matcher check = CHECK.matcher(path);
            if (!check.matches() || !exchange.getRequestMethod().equals("POST")) {
                send(
                        exchange,
                        new Answer(
                                404, "{\"error\":{\"code\":\"not_found\",\"message\":\"no route\",\"details\":{}}}"));
                return;
            }
            String reservationId = check.group(1);
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            CALLS.computeIfAbsent(reservationId, key -> new CopyOnWriteArrayList<>())
                    .add(new Call(
                            reservationId,
                            claims(exchange),
                            body,
                            exchange.getRequestHeaders().getFirst("traceparent")));
            Answer answer = ANSWERS.get(reservationId);
            send(exchange, answer != null ? answer : new Answer(200, reservation(reservationId)));
        }
    }

    private static boolean handleMedia(HttpExchange exchange, String path) throws IOException {
        String method = exchange.getRequestMethod();
        if (method.equals("GET") && path.equals("/internal/entitlements")) {
            String workspace = claims(exchange).path("wid").asText();
            ObjectNode data = JSON.createObjectNode()
                    .put("plan", "free")
                    .put("plan_source", "free")
                    .put("concurrent_ingests", CONCURRENT_INGESTS.getOrDefault(workspace, 2));
            send(
                    exchange,
                    new Answer(200, JSON.createObjectNode().set("data", data).toString()));
            return true;
        }
        if (method.equals("POST") && path.equals("/internal/reservations")) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            String id = body.path("reservation_id").asText();
            MEDIA_CALLS
                    .computeIfAbsent(id, key -> new CopyOnWriteArrayList<>())
                    .add(new MediaCall("reserve", id, body));
            Answer canned = RESERVE_ANSWERS.get(id);
            if (canned != null) {
                send(exchange, canned);
                return true;
            }
            long units = body.path("units").asLong();
            Long before = RESERVED_UNITS.get(id);
            RESERVED_UNITS.merge(id, units, Math::max);
            ObjectNode data = JSON.createObjectNode()
                    .put("id", id)
                    .put("meter", body.path("meter").asText())
                    .put("units", RESERVED_UNITS.get(id))
                    .put("status", "reserved");
            send(
                    exchange,
                    new Answer(
                            before == null ? 201 : 200,
                            JSON.createObjectNode().set("data", data).toString()));
            return true;
        }
        Matcher settle = SETTLE.matcher(path);
        if (method.equals("POST") && settle.matches()) {
            String id = settle.group(1);
            byte[] raw = exchange.getRequestBody().readAllBytes();
            JsonNode body = raw.length == 0 ? JSON.createObjectNode() : JSON.readTree(raw);
            MEDIA_CALLS
                    .computeIfAbsent(id, key -> new CopyOnWriteArrayList<>())
                    .add(new MediaCall(settle.group(2), id, body));
            ObjectNode data = JSON.createObjectNode()
                    .put("id", id)
                    .put("meter", "media_bytes")
                    .put("status", settle.group(2).equals("consume") ? "consumed" : "released");
            send(
                    exchange,
                    new Answer(200, JSON.createObjectNode().set("data", data).toString()));
            return true;
        }
        return false;
    }

    private static String reservation(String id) {
        ObjectNode data = JSON.createObjectNode()
                .put("id", id)
                .put("meter", "publications")
                .put("units", 1)
                .put("status", "reserved");
        return JSON.createObjectNode().set("data", data).toString();
    }

    private static JsonNode claims(HttpExchange exchange) throws IOException {
        String bearer = exchange.getRequestHeaders().getFirst("authorization");
        if (bearer == null || !bearer.startsWith("Bearer ")) {
            return JSON.createObjectNode();
        }
        String[] parts = bearer.substring("Bearer ".length()).split("\\.");
        return JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
    }

    private static void send(HttpExchange exchange, Answer answer) throws IOException {
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
