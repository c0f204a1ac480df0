package dev.herald.accounts.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * profiles-service and usage-service as the connect flow calls them, on a local HTTP server: a profile exists
 * unless its id ends in {@code 404}; every hold and slot is granted, except that a workspace whose id ends in
 * {@code fff} has no free slot (usage-service's {@code 409 account_limit_reached}), one whose id ends in {@code ee1}
 * has exactly one, and one whose id ends in {@code ddd} has spent its new connections
 * ({@code 429 usage_limit_exceeded} with {@code Retry-After}).
 */
public class ConnectFakeUpstreams implements QuarkusTestResourceLifecycleManager {
    public static final String MISSING_PROFILE = "prf_000000000000000000000404";
    public static final String FULL_WORKSPACE = "ws_000000000000000000000fff";
    private static final Map<String, Integer> SLOTS_GRANTED = new java.util.concurrent.ConcurrentHashMap<>();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/profiles/", exchange -> {
            String id = exchange.getRequestURI().getPath().substring("/profiles/".length());
            if (id.endsWith("404")) {
                answer(
                        exchange,
                        404,
                        "{\"error\":{\"code\":\"not_found\",\"message\":\"No such profile.\",\"details\":{}}}");
            } else {
                answer(exchange, 200, "{\"data\":{\"id\":\"" + id + "\"}}");
            }
        });
        server.createContext("/internal/profiles/", exchange -> answer(exchange, 204, null));
        server.createContext("/internal/connected-accounts", exchange -> {
            String token = exchange.getRequestHeaders().getFirst("authorization");
            String workspace = token == null ? "" : workspaceOf(token);
            boolean slotTaken = workspace.endsWith("ee1") && SLOTS_GRANTED.merge(workspace, 1, Integer::sum) > 1;
            if (workspace.endsWith("fff") || slotTaken) {
                answer(
                        exchange,
                        409,
                        "{\"error\":{\"code\":\"account_limit_reached\",\"message\":\"No free slot.\","
                                + "\"details\":{\"limit\":2}}}");
            } else if (workspace.endsWith("ddd")) {
                exchange.getResponseHeaders().add("Retry-After", "3600");
                answer(
                        exchange,
                        429,
                        "{\"error\":{\"code\":\"usage_limit_exceeded\",\"message\":\"No new connections left.\","
                                + "\"details\":{\"metric\":\"new_connections\",\"retry_after_seconds\":3600}}}");
            } else {
                answer(exchange, 200, "{\"data\":{}}");
            }
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "herald.services.profiles.url",
                url,
                "herald.services.usage.url",
                url,
                "herald.services.posts.url",
                url,
                "herald.connect.public-url",
                "http://127.0.0.1:18080");
    }

    /** The workspace claim of an internal JWT (its payload read without verifying: this fake trusts its caller). */
    private static String workspaceOf(String bearer) {
        String[] parts = bearer.substring("Bearer ".length()).split("\\.");
        String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        int start = payload.indexOf("\"wid\":\"") + 7;
        return payload.substring(start, payload.indexOf('"', start));
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        exchange.getRequestBody().readAllBytes();
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
        } else {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
