package dev.herald.accounts.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local HTTP stand-in for the internal APIs accounts-service calls: usage-service's connected-account slots
 * (10 test accounts; live: a free plan's 2 slots and 4 new connections), profiles-service's holds (only profiles
 * registered with {@link #addProfile} exist) and posts-service's account fences with their pending-post count
 * ({@link #setPendingPosts}, {@link #fences}).
 * The real rules are tested in those services; this checks what accounts-service sends and how it reads answers.
 * Tenancy comes from the internal JWT's claims, as in the real services (the signature is not checked here).
 */
public class FakeServices implements QuarkusTestResourceLifecycleManager {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HOLD = Pattern.compile("^/internal/profiles/([^/]+)/holds/accounts/([^/]+)$");
    private static final Pattern FENCE = Pattern.compile("^/internal/accounts/([^/]+)/fences(?:/([^/]+))?$");
    private static final Pattern SLOT = Pattern.compile("^/internal/connected-accounts/([^/]+)$");

    /** tenant ("ws:mode") -> connected account ids. */
    public static final Map<String, Set<String>> SLOTS = new ConcurrentHashMap<>();

    public static final Map<String, AtomicInteger> NEW_CONNECTIONS = new ConcurrentHashMap<>();
    /** tenant -> profile ids that exist. */
    private static final Map<String, Set<String>> PROFILES = new ConcurrentHashMap<>();
    /** profile id -> holder account ids. */
    public static final Map<String, Set<String>> HOLDS = new ConcurrentHashMap<>();

    private static final Map<String, Long> PENDING_POSTS = new ConcurrentHashMap<>();
    /** account id -> when its next fences end (unless lifted); far off when not set. */
    private static final Map<String, String> FENCE_EXPIRIES = new ConcurrentHashMap<>();
    /** account id -> fence id -> lifted. */
    private static final Map<String, Map<String, Boolean>> FENCES = new ConcurrentHashMap<>();

    private static final AtomicInteger FENCE_IDS = new AtomicInteger();
    public static volatile boolean postsDown;

    private static final String PORT_PROPERTY = "herald.test.fake-services.port";
    private static HttpServer server;

    public static void addProfile(String workspaceId, String mode, String profileId) {
        PROFILES.computeIfAbsent(workspaceId + ":" + mode, key -> ConcurrentHashMap.newKeySet())
                .add(profileId);
    }

    public static void setPendingPosts(String accountId, long count) {
        PENDING_POSTS.put(accountId, count);
    }

    public static void setFenceExpiry(String accountId, Instant expiresAt) {
        FENCE_EXPIRIES.put(accountId, expiresAt.toString());
    }

    /** The account's fences put up so far, each with whether it was lifted. */
    public static Map<String, Boolean> fences(String accountId) {
        return Map.copyOf(FENCES.getOrDefault(accountId, Map.of()));
    }

    public static Set<String> holders(String profileId) {
        return HOLDS.getOrDefault(profileId, Set.of());
    }

    public static Set<String> connected(String workspaceId, String mode) {
        return SLOTS.getOrDefault(workspaceId + ":" + mode, Set.of());
    }

    public static int newConnections(String workspaceId) {
        return NEW_CONNECTIONS
                .getOrDefault(workspaceId + ":live", new AtomicInteger())
                .get();
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
        FakeServices handler = new FakeServices();
        server.createContext("/", handler::handle);
        server.start();
    }

    @Override
    public Map<String, String> start() {
        int port = dev.herald.local.FreePorts.next();
        System.setProperty(PORT_PROPERTY, Integer.toString(port));
        String url = "http://127.0.0.1:" + port;
        // The REST clients' own URL keys: they win over any herald.services.* another (global) test resource sets.
        return Map.of(
                "quarkus.rest-client.usage-service.url",
                url,
                "quarkus.rest-client.profiles-service.url",
                url,
                "quarkus.rest-client.posts-service.url",
                url,
                "herald.accounts.revocation.poll-interval",
                "1s",
                "herald.accounts.revocation.first-delay",
                "PT1S");
    }

    @Override
    public void stop() {
        // The server belongs to the tests' class loader and stops with the JVM (a daemon dispatcher).
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String tenant = tenant(exchange);
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            Matcher hold = HOLD.matcher(path);
            Matcher fence = FENCE.matcher(path);
            Matcher slot = SLOT.matcher(path);
            if (path.equals("/internal/connected-accounts") && method.equals("POST")) {
                connect(exchange, tenant);
            } else if (slot.matches() && method.equals("DELETE")) {
                SLOTS.getOrDefault(tenant, ConcurrentHashMap.newKeySet()).remove(slot.group(1));
                send(
                        exchange,
                        200,
                        "{\"data\":{\"account_id\":\"" + slot.group(1) + "\",\"connected\":false}}",
                        Map.of());
            } else if (hold.matches()) {
                if (method.equals("PUT")) {
                    if (!PROFILES.getOrDefault(tenant, Set.of()).contains(hold.group(1))) {
                        send(
                                exchange,
                                404,
                                "{\"error\":{\"code\":\"not_found\",\"message\":\"No such profile.\",\"details\":{}}}",
                                Map.of());
                        return;
                    }
                    HOLDS.computeIfAbsent(hold.group(1), key -> ConcurrentHashMap.newKeySet())
                            .add(hold.group(2));
                } else {
                    HOLDS.getOrDefault(hold.group(1), ConcurrentHashMap.newKeySet())
                            .remove(hold.group(2));
                }
                exchange.sendResponseHeaders(204, -1);
            } else if (fence.matches() && postsDown) {
                send(exchange, 500, "{}", Map.of());
            } else if (fence.matches() && fence.group(2) == null && method.equals("POST")) {
                String fenceId = "fence-" + FENCE_IDS.incrementAndGet();
                FENCES.computeIfAbsent(fence.group(1), key -> new ConcurrentHashMap<>())
                        .put(fenceId, false);
                send(
                        exchange,
                        200,
                        "{\"data\":{\"fence_id\":\"" + fenceId + "\",\"account_id\":\"" + fence.group(1)
                                + "\",\"pending_posts\":" + PENDING_POSTS.getOrDefault(fence.group(1), 0L)
                                + ",\"expires_at\":\""
                                + FENCE_EXPIRIES.getOrDefault(fence.group(1), "2030-01-01T00:00:00Z") + "\"}}",
                        Map.of());
            } else if (fence.matches() && fence.group(2) != null && method.equals("DELETE")) {
                FENCES.getOrDefault(fence.group(1), new ConcurrentHashMap<>()).replace(fence.group(2), true);
                exchange.sendResponseHeaders(204, -1);
            } else {
                send(
                        exchange,
                        404,
                        "{\"error\":{\"code\":\"not_found\",\"message\":\"no route\",\"details\":{}}}",
                        Map.of());
            }
        }
    }

    private void connect(HttpExchange exchange, String tenant) throws IOException {
        JsonNode body = JSON.readTree(exchange.getRequestBody());
        String accountId = body.get("account_id").asText();
        boolean live = tenant.endsWith(":live");
        Set<String> connected = SLOTS.computeIfAbsent(tenant, key -> ConcurrentHashMap.newKeySet());
        if (connected.contains(accountId)) {
            send(exchange, 200, slot(accountId, connected.size(), live ? 2 : 10), Map.of());
            return;
        }
        int limit = live ? 2 : 10;
        if (connected.size() >= limit) {
            send(
                    exchange,
                    409,
                    "{\"error\":{\"code\":\"account_limit_reached\",\"message\":\"limit\",\"details\":"
                            + "{\"mode\":\"" + (live ? "live" : "test") + "\",\"plan\":\"free\",\"limit\":" + limit
                            + ",\"connected\":" + connected.size()
                            + ",\"upgrade_url\":\"https://herald.dev/pricing\"}}}",
                    Map.of());
            return;
        }
        AtomicInteger used = NEW_CONNECTIONS.computeIfAbsent(tenant, key -> new AtomicInteger());
        if (live && body.get("new_connection").asBoolean() && used.get() >= 4) {
            send(
                    exchange,
                    429,
                    "{\"error\":{\"code\":\"usage_limit_exceeded\",\"message\":\"used up\",\"details\":"
                            + "{\"metric\":\"new_connections\",\"mode\":\"live\",\"plan\":\"free\",\"limit\":4,\"used\":4,"
                            + "\"reserved\":0,\"remaining\":0,\"reset_at\":\"2026-12-01T00:00:00Z\","
                            + "\"upgrade_url\":\"https://herald.dev/pricing\",\"retry_after_seconds\":777}}}",
                    Map.of("Retry-After", "777"));
            return;
        }
        if (live && body.get("new_connection").asBoolean()) {
            used.incrementAndGet();
        }
        connected.add(accountId);
        send(exchange, 201, slot(accountId, connected.size(), limit), Map.of());
    }

    private static String slot(String accountId, int connected, int limit) {
        return "{\"data\":{\"account_id\":\"" + accountId + "\",\"connected\":" + connected + ",\"limit\":" + limit
                + "}}";
    }

    private static String tenant(HttpExchange exchange) throws IOException {
        String bearer = exchange.getRequestHeaders().getFirst("authorization");
        String[] parts = bearer.substring("Bearer ".length()).split("\\.");
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        return claims.get("wid").asText() + ":" + claims.get("mode").asText();
    }

    private static void send(HttpExchange exchange, int status, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/json");
        headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
