package dev.herald.posts.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local HTTP stand-in for the internal APIs posts-service calls: accounts-service's lookup (accounts
 * registered with {@link #addAccount}) and provider access (granted with {@link #grantAccess}),
 * usage-service's reservations (an allowance per tenant and meter, all-or-nothing batches, live capacity refusals
 * for tenants marked {@link #overCapacity}, consume and release) and profiles-service's holds and posting queues
 * ({@link #setQueue}). The real rules are tested in those services; this checks what posts-service sends and how it reads
 * the answers. Tenancy comes from the internal JWT's claims (the signature is not checked here).
 *
 * <p>Longer than 300 lines: one stand-in per internal API would each need the server, the JWT claim reading and the per-test reset again; one fake keeps one port and one reset.
 */
public class FakeUpstreams implements QuarkusTestResourceLifecycleManager {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RELEASE = Pattern.compile("^/internal/reservations/([^/]+)/release$");
    private static final Pattern CONSUME = Pattern.compile("^/internal/reservations/([^/]+)/consume$");
    private static final Pattern ACCESS = Pattern.compile("^/internal/accounts/([^/]+)/access-token$");
    private static final Pattern HOLD = Pattern.compile("^/internal/profiles/([^/]+)/holds/pending_posts/([^/]+)$");
    private static final Pattern QUEUE = Pattern.compile("^/internal/profiles/([^/]+)/queue$");
    private static final String PORT_PROPERTY = "herald.test.fake-upstreams.port";

    /** tenant ("ws:mode") -> account id -> the lookup's item. */
    private static final Map<String, Map<String, ObjectNode>> ACCOUNTS = new ConcurrentHashMap<>();
    /** reservation id -> "reserved" or "released". */
    public static final Map<String, String> RESERVATIONS = new ConcurrentHashMap<>();

    private static final Map<String, Integer> PUBLICATION_LIMITS = new ConcurrentHashMap<>();
    private static final Map<String, Set<String>> TENANT_RESERVATIONS = new ConcurrentHashMap<>();
    public static final Set<String> OVER_CAPACITY = ConcurrentHashMap.newKeySet();
    /** tenant ("ws:mode") + ":" + profile id -> its posting queue ({@code PostQueue} as JSON). */
    private static final Map<String, ObjectNode> QUEUES = new ConcurrentHashMap<>();
    /** profile id -> post ids holding it. */
    public static final Map<String, Set<String>> HOLDS = new ConcurrentHashMap<>();

    public static final AtomicInteger BATCHES = new AtomicInteger();
    /** reservation id -> meter, for the meters other than publications. */
    private static final Map<String, String> METERS = new ConcurrentHashMap<>();
    /** tenant -> comment requests allowed. */
    private static final Map<String, Integer> COMMENT_LIMITS = new ConcurrentHashMap<>();
    /** account id -> its provider access (platform, external id, current token, renewals, revoked). */
    private static final Map<String, ObjectNode> GRANTS = new ConcurrentHashMap<>();
    /** account id -> the rejected_token_sha256 of each access request ("" when none was named). */
    public static final Map<String, java.util.List<String>> ACCESS_REQUESTS = new ConcurrentHashMap<>();
    /** account id -> the body of each lookup that named it. */
    public static final Map<String, java.util.List<JsonNode>> LOOKUPS = new ConcurrentHashMap<>();
    /** How long a reservation batch takes, to hold requests in flight. */
    public static volatile long reserveDelayMillis;

    private static HttpServer server;

    public static String addAccount(
            String workspaceId, String mode, String platform, String username, String profileId) {
        String id = ResourceIds.newId(IdPrefix.ACCOUNT);
        ObjectNode account = JSON.createObjectNode()
                .put("id", id)
                .put("platform", platform)
                .put("profile_id", profileId)
                .put("name", "Account " + username)
                .put("username", username)
                .put("status", "connected")
                .put("mode", mode)
                .put("connected_at", "2026-11-01T00:00:00Z")
                .putNull("disconnected_at")
                .put("created_at", "2026-11-01T00:00:00Z")
                .put("updated_at", "2026-11-01T00:00:00Z");
        ObjectNode item = JSON.createObjectNode();
        item.set("account", account);
        if (platform.equals("tiktok")) {
            ObjectNode options = item.putObject("publishing_options")
                    .put("creator_nickname", "Creator")
                    .put("creator_username", username)
                    .putNull("creator_avatar_url")
                    .put("comment_disabled", false)
                    .put("duet_disabled", false)
                    .put("stitch_disabled", true)
                    .put("max_video_post_duration_sec", 600);
            options.putArray("privacy_level_options").add("PUBLIC_TO_EVERYONE").add("SELF_ONLY");
        }
        ACCOUNTS.computeIfAbsent(workspaceId + ":" + mode, key -> new ConcurrentHashMap<>())
                .put(id, item);
        return id;
    }

    public static void disconnect(String workspaceId, String mode, String accountId) {
        ((ObjectNode) ACCOUNTS.get(workspaceId + ":" + mode).get(accountId).get("account"))
                .put("status", "disconnected");
    }

    /**
     * The platform refused the account's grant for good: health {@code reauth_required}, and the lookup carries the
     * {@code reconnectUrl} accounts-service puts on a broken account. The account stays connected (it keeps its slot).
     */
    public static void needsReauthorization(String workspaceId, String mode, String accountId, String reconnectUrl) {
        ObjectNode item = ACCOUNTS.get(workspaceId + ":" + mode).get(accountId);
        ((ObjectNode) item.get("account"))
                .putObject("health")
                .put("status", "reauth_required")
                .put("reason", "invalid_grant: token revoked")
                .putNull("token_expires_at")
                .put("checked_at", "2026-11-27T10:00:00Z");
        item.put("reconnect_url", reconnectUrl);
    }

    /**
     * A YouTube account's analytics consent for its current authorization: {@code accepted}, or {@code required}
     * (what accounts-service shows before the owner accepts, and again after a re-authorization).
     */
    public static void setAnalyticsConsent(String workspaceId, String mode, String accountId, boolean accepted) {
        ObjectNode consent = ((ObjectNode)
                        ACCOUNTS.get(workspaceId + ":" + mode).get(accountId).get("account"))
                .putObject("analytics_consent")
                .put("status", accepted ? "accepted" : "required")
                .put("authorization_revision", 1);
        if (accepted) {
            consent.put("policy_version", "2026-01").put("accepted_at", "2026-11-02T00:00:00Z");
        } else {
            consent.putNull("policy_version").putNull("accepted_at");
        }
    }

    /** The live account's provider access: accounts-service hands out {@code token}, renewed when it is named refused. */
    public static void grantAccess(String accountId, String platform, String externalId, String token) {
        GRANTS.put(
                accountId,
                JSON.createObjectNode()
                        .put("account_id", accountId)
                        .put("platform", platform)
                        .put("external_id", externalId)
                        .put("access_token", token)
                        .put("expires_at", "2027-01-01T00:00:00Z")
                        .put("renewals", 0)
                        .put("revoked", false));
    }

    /** The platform revoked the grant: the next access request disconnects the account (409 grant_revoked). */
    public static void revokeGrant(String accountId) {
        GRANTS.get(accountId).put("revoked", true);
    }

    public static int renewals(String accountId) {
        return GRANTS.get(accountId).get("renewals").asInt();
    }

    public static void setCommentRequestLimit(String workspaceId, String mode, int limit) {
        COMMENT_LIMITS.put(workspaceId + ":" + mode, limit);
    }

    /** The tenant's comment-request reservations by status ("reserved", "consumed", "released"). */
    public static Map<String, Long> commentRequests(String workspaceId, String mode) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        TENANT_RESERVATIONS.getOrDefault(workspaceId + ":" + mode, Set.of()).stream()
                .filter(id -> "comment_requests".equals(METERS.get(id)))
                .forEach(id -> counts.merge(RESERVATIONS.get(id), 1L, Long::sum));
        return counts;
    }

    public static void setPublicationLimit(String workspaceId, String mode, int limit) {
        PUBLICATION_LIMITS.put(workspaceId + ":" + mode, limit);
    }

    /** A reservation as a batch would have made it: what a request that then died leaves behind. */
    public static void addReservation(String workspaceId, String mode, String reservationId) {
        RESERVATIONS.put(reservationId, "reserved");
        TENANT_RESERVATIONS
                .computeIfAbsent(workspaceId + ":" + mode, key -> ConcurrentHashMap.newKeySet())
                .add(reservationId);
    }

    /** Reservations of the tenant still reserved. */
    public static long reserved(String workspaceId, String mode) {
        return TENANT_RESERVATIONS.getOrDefault(workspaceId + ":" + mode, Set.of()).stream()
                .filter(id -> "reserved".equals(RESERVATIONS.get(id)))
                .count();
    }

    /** The profile's posting queue: {@code slots} as {@code "monday 09:00"}. */
    public static void setQueue(String workspaceId, String mode, String profileId, String timezone, String... slots) {
        ObjectNode queue = JSON.createObjectNode()
                .put("profile_id", profileId)
                .put("timezone", timezone)
                .put("updated_at", "2026-11-01T00:00:00Z");
        ArrayNode items = queue.putArray("slots");
        for (String slot : slots) {
            items.addObject().put("day", slot.split(" ")[0]).put("time", slot.split(" ")[1]);
        }
        QUEUES.put(workspaceId + ":" + mode + ":" + profileId, queue);
    }

    public static Set<String> holders(String profileId) {
        return HOLDS.getOrDefault(profileId, Set.of());
    }

    /** Starts the stand-in in the tests' own class loader, on the port the resource reserved. Call before each test. */
    public static synchronized void ensureStarted() {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.getInteger(PORT_PROPERTY)), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        FakeUpstreams handler = new FakeUpstreams();
        server.createContext("/", handler::handle);
        server.setExecutor(Executors.newFixedThreadPool(16, runnable -> {
            Thread thread = new Thread(runnable, "fake-upstreams");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    @Override
    public Map<String, String> start() {
        int port = dev.herald.local.FreePorts.next();
        System.setProperty(PORT_PROPERTY, Integer.toString(port));
        String url = "http://127.0.0.1:" + port;
        return Map.of(
                "quarkus.rest-client.accounts-service.url",
                url,
                "quarkus.rest-client.usage-service.url",
                url,
                "quarkus.rest-client.profiles-service.url",
                url);
    }

    @Override
    public void stop() {
        // The server belongs to the tests' class loader and stops with the JVM (daemon threads).
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String tenant = tenant(exchange);
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            Matcher release = RELEASE.matcher(path);
            Matcher consume = CONSUME.matcher(path);
            Matcher access = ACCESS.matcher(path);
            Matcher hold = HOLD.matcher(path);
            Matcher queue = QUEUE.matcher(path);
            if (path.equals("/internal/accounts/lookup") && method.equals("POST")) {
                JsonNode body = JSON.readTree(exchange.getRequestBody());
                ArrayNode data = JSON.createArrayNode();
                Map<String, ObjectNode> accounts = ACCOUNTS.getOrDefault(tenant, Map.of());
                body.get("ids").forEach(id -> {
                    LOOKUPS.computeIfAbsent(id.asText(), key -> new java.util.concurrent.CopyOnWriteArrayList<>())
                            .add(body);
                    if (accounts.containsKey(id.asText())) {
                        data.add(accounts.get(id.asText()));
                    }
                });
                send(exchange, 200, JSON.createObjectNode().set("data", data).toString(), Map.of());
            } else if (path.equals("/internal/reservations/batch") && method.equals("POST")) {
                reserve(exchange, tenant, JSON.readTree(exchange.getRequestBody()));
            } else if (access.matches() && method.equals("POST")) {
                access(exchange, access.group(1), JSON.readTree(exchange.getRequestBody()));
            } else if (consume.matches() && method.equals("POST")) {
                if (!RESERVATIONS.containsKey(consume.group(1))
                        || "released".equals(RESERVATIONS.get(consume.group(1)))) {
                    send(
                            exchange,
                            409,
                            "{\"error\":{\"code\":\"conflict\",\"message\":\"not reserved\",\"details\":{}}}",
                            Map.of());
                    return;
                }
                RESERVATIONS.put(consume.group(1), "consumed");
                send(
                        exchange,
                        200,
                        "{\"data\":{\"id\":\"" + consume.group(1) + "\",\"status\":\"consumed\"}}",
                        Map.of());
            } else if (release.matches() && method.equals("POST")) {
                if (!RESERVATIONS.containsKey(release.group(1))) {
                    send(
                            exchange,
                            404,
                            "{\"error\":{\"code\":\"not_found\",\"message\":\"No such reservation.\",\"details\":{}}}",
                            Map.of());
                    return;
                }
                if ("consumed".equals(RESERVATIONS.get(release.group(1)))) {
                    send(
                            exchange,
                            409,
                            "{\"error\":{\"code\":\"conflict\",\"message\":\"consumed\",\"details\":{}}}",
                            Map.of());
                    return;
                }
                RESERVATIONS.put(release.group(1), "released");
                send(
                        exchange,
                        200,
                        "{\"data\":{\"id\":\"" + release.group(1) + "\",\"status\":\"released\"}}",
                        Map.of());
            } else if (queue.matches() && method.equals("GET")) {
                ObjectNode found = QUEUES.get(tenant + ":" + queue.group(1));
                if (found == null) {
                    send(
                            exchange,
                            404,
                            "{\"error\":{\"code\":\"not_found\",\"message\":\"No such queue.\",\"details\":{}}}",
                            Map.of());
                } else {
                    send(
                            exchange,
                            200,
                            JSON.createObjectNode().set("data", found).toString(),
                            Map.of());
                }
            } else if (hold.matches()) {
                if (method.equals("PUT")) {
                    HOLDS.computeIfAbsent(hold.group(1), key -> ConcurrentHashMap.newKeySet())
                            .add(hold.group(2));
                } else {
                    HOLDS.getOrDefault(hold.group(1), ConcurrentHashMap.newKeySet())
                            .remove(hold.group(2));
                }
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

    private void access(HttpExchange exchange, String accountId, JsonNode body) throws IOException {
        String rejected = body.path("rejected_token_sha256").asText("");
        ACCESS_REQUESTS
                .computeIfAbsent(accountId, key -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(rejected);
        ObjectNode grant = GRANTS.get(accountId);
        if (grant == null) {
            send(
                    exchange,
                    404,
                    "{\"error\":{\"code\":\"not_found\",\"message\":\"No such account.\",\"details\":{}}}",
                    Map.of());
            return;
        }
        synchronized (grant) {
            if (grant.get("revoked").asBoolean()) {
                send(
                        exchange,
                        409,
                        "{\"error\":{\"code\":\"conflict\",\"message\":\"The account's grant was revoked; "
                                + "reconnect it.\",\"details\":{\"reason\":\"grant_revoked\",\"account_id\":\""
                                + accountId
                                + "\",\"provider_code\":\"invalid_grant\"}}}",
                        Map.of());
                return;
            }
            if (rejected.equals(sha256(grant.get("access_token").asText()))) {
                grant.put("access_token", grant.get("access_token").asText() + "-renewed");
                grant.put("renewals", grant.get("renewals").asInt() + 1);
            }
            ObjectNode data = grant.deepCopy();
            data.remove("renewals");
            data.remove("revoked");
            send(exchange, 200, JSON.createObjectNode().set("data", data).toString(), Map.of());
        }
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void reserve(HttpExchange exchange, String tenant, JsonNode body) throws IOException {
        BATCHES.incrementAndGet();
        if (reserveDelayMillis > 0) {
            try {
                Thread.sleep(reserveDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (FakeUpstreams.class) {
            boolean live = tenant.endsWith(":live");
            if (live && body.path("require_account_capacity").asBoolean() && OVER_CAPACITY.contains(tenant)) {
                send(
                        exchange,
                        409,
                        "{\"error\":{\"code\":\"account_capacity_exceeded\",\"message\":\"over capacity\",\"details\":"
                                + "{\"mode\":\"live\",\"plan\":\"free\",\"limit\":2,\"connected\":3,\"upgrade_url\":\"https://herald.dev/pricing\"}}}",
                        Map.of());
                return;
            }
            Set<String> mine = TENANT_RESERVATIONS.computeIfAbsent(tenant, key -> ConcurrentHashMap.newKeySet());
            if ("comment_requests"
                    .equals(body.get("reservations").get(0).path("meter").asText())) {
                reserveCommentRequests(exchange, tenant, mine, body);
                return;
            }
            long used = mine.stream()
                    .filter(id -> "reserved".equals(RESERVATIONS.get(id)) && !METERS.containsKey(id))
                    .count();
            int limit = PUBLICATION_LIMITS.getOrDefault(tenant, 1000);
            int wanted = body.get("reservations").size();
            if (used + wanted > limit) {
                send(
                        exchange,
                        429,
                        "{\"error\":{\"code\":\"usage_limit_exceeded\",\"message\":\"used up\",\"details\":"
                                + "{\"metric\":\"publications\",\"mode\":\"" + (live ? "live" : "test")
                                + "\",\"plan\":\"free\",\"limit\":" + limit
                                + ",\"used\":0,\"reserved\":" + used + ",\"remaining\":" + Math.max(0, limit - used)
                                + ",\"reset_at\":\"2026-12-01T00:00:00Z\",\"upgrade_url\":\"https://herald.dev/pricing\","
                                + "\"retry_after_seconds\":777}}}",
                        Map.of("Retry-After", "777"));
                return;
            }
            body.get("reservations").forEach(item -> {
                String id = item.get("reservation_id").asText();
                RESERVATIONS.put(id, "reserved");
                mine.add(id);
            });
            send(exchange, 201, "{\"data\":[]}", Map.of());
        }
    }

    /** Comment requests: reserved and consumed ones count against the tenant's limit. */
    private void reserveCommentRequests(HttpExchange exchange, String tenant, Set<String> mine, JsonNode body)
            throws IOException {
        long used = mine.stream()
                .filter(id -> "comment_requests".equals(METERS.get(id)) && "consumed".equals(RESERVATIONS.get(id)))
                .count();
        long reserved = mine.stream()
                .filter(id -> "comment_requests".equals(METERS.get(id)) && "reserved".equals(RESERVATIONS.get(id)))
                .count();
        int limit = COMMENT_LIMITS.getOrDefault(tenant, 1000);
        if (used + reserved + body.get("reservations").size() > limit) {
            send(
                    exchange,
                    429,
                    "{\"error\":{\"code\":\"usage_limit_exceeded\",\"message\":\"The comment requests of this month are used up.\","
                            + "\"details\":{\"metric\":\"comment_requests\",\"mode\":\"live\",\"plan\":\"free\",\"limit\":"
                            + limit
                            + ",\"used\":" + used + ",\"reserved\":" + reserved + ",\"remaining\":"
                            + Math.max(0, limit - used - reserved)
                            + ",\"reset_at\":\"2026-12-01T00:00:00Z\",\"upgrade_url\":\"https://herald.dev/pricing\","
                            + "\"retry_after_seconds\":654321}}}",
                    Map.of("Retry-After", "654321"));
            return;
        }
        body.get("reservations").forEach(item -> {
            String id = item.get("reservation_id").asText();
            RESERVATIONS.put(id, "reserved");
            METERS.put(id, "comment_requests");
            mine.add(id);
        });
        send(exchange, 201, "{\"data\":[]}", Map.of());
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
