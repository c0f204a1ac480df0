package dev.herald.gateway.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.herald.common.api.LimitRefusal;
import dev.herald.local.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for the services behind the gateway. It answers every request with a JSON echo of what it
 * received (method, path, query, body length, and the {@code api_requests_used} claim of the internal JWT)
 * and remembers the headers of the last request. {@code ?status=N} makes it answer with status N and
 * {@code ?replayed=true} with {@code Idempotency-Replayed: true}, {@code ?limit_refusal=true} marks a limit refusal; {@code ?chunked=true} streams the
 * answer without a Content-Length. As usage-service it answers
 * {@code /internal/entitlements} from {@link #ENTITLEMENTS} (free plan when absent) and echoes
 * {@code PUT /internal/subscription}; {@code GET /usage} gets a canned usage view (the plan from {@link #USAGE_PLANS},
 * 7 publications used and 3 reserved, the claim's API requests) and {@code GET /internal/plans} the catalog's four plans.
 * {@code POST /posts} with an {@code Idempotency-Key} is answered as posts-service would ({@link #acceptPost}): 202 with a
 * new post, 200 with {@code Idempotency-Replayed} for the same key and body, 422 for another body with the key or for
 * the text {@code "invalid"}, and no answer for the text {@code "unreachable"}; the keys arrive in
 * {@link #POSTED_KEYS}. The accounts service is pointed at a port nobody
 * listens on.
 */
public class EchoUpstream implements QuarkusTestResourceLifecycleManager {
    public static final Map<String, String> lastHeaders = new ConcurrentHashMap<>();
    /** "workspace:mode" -> {per_minute, api_requests_limit}. */
    public static final Map<String, long[]> ENTITLEMENTS = new ConcurrentHashMap<>();
    /** "workspace:mode" -> the plan {@code GET /usage} reports (free when absent). */
    public static final Map<String, String> USAGE_PLANS = new ConcurrentHashMap<>();
    /** The Idempotency-Keys of keyed POST /posts, in arrival order. */
    public static final List<String> POSTED_KEYS = new CopyOnWriteArrayList<>();
    /** "workspace:mode:key" -> the body first accepted with it. */
    private static final Map<String, String> ACCEPTED = new ConcurrentHashMap<>();

    private static final ObjectMapper JSON = new ObjectMapper();
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
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "herald.services.profiles.url", url,
                "herald.services.posts.url", url,
                "herald.services.webhooks.url", url,
                "herald.services.usage.url", url,
                "herald.services.mcp.url", url,
                "herald.services.accounts.url", "http://127.0.0.1:" + FreePorts.next());
    }

    private void answer(HttpExchange exchange) throws IOException {
        Map<String, String> headers = new ConcurrentHashMap<>();
        exchange.getRequestHeaders()
                .forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode claims = claims(headers.get("authorization"));
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        int status = 200;
        String answer;
        if (path.equals("/internal/entitlements")) {
            answer = entitlements(
                    claims.path("wid").asText() + ":" + claims.path("mode").asText());
        } else if (path.equals("/usage")) {
            answer = usage(claims);
        } else if (path.equals("/internal/plans")) {
            answer = plans(claims.path("mode").asText());
        } else if (path.equals("/internal/subscription")) {
            // As usage-service: the usage view, whose api_requests it cannot know (the gateway counts them).
            String periodStart = YearMonth.now(ZoneOffset.UTC)
                    .atDay(1)
                    .atStartOfDay()
                    .toInstant(ZoneOffset.UTC)
                    .toString();
            answer = "{\"data\":{\"forwarded\":" + body + ",\"workspace\":\""
                    + claims.path("wid").asText()
                    + "\",\"mode\":\"" + claims.path("mode").asText() + "\",\"period\":{\"start\":\"" + periodStart
                    + "\"},"
                    + "\"api_requests\":{\"used\":0,\"reserved\":0,\"limit\":2000,\"remaining\":2000}}}";
        } else if (path.equals("/posts")
                && exchange.getRequestMethod().equals("POST")
                && headers.containsKey("idempotency-key")) {
            String key = headers.get("idempotency-key");
            POSTED_KEYS.add(key);
            if ("unreachable".equals(JSON.readTree(body).path("text").asText())) {
                // No answer at all: the connection closes, as when posts-service dies mid-request.
                exchange.close();
                return;
            }
            Map.Entry<Integer, String> accepted = acceptPost(
                    claims.path("wid").asText() + ":" + claims.path("mode").asText() + ":" + key, body);
            status = accepted.getKey();
            answer = accepted.getValue();
            if (status == 200) {
                exchange.getResponseHeaders().add("Idempotency-Replayed", "true");
            }
        } else {
            lastHeaders.clear();
            lastHeaders.putAll(headers);
            if (query != null && query.matches(".*status=\\d{3}.*")) {
                status = Integer.parseInt(query.replaceAll(".*status=(\\d{3}).*", "$1"));
            }
            if (query != null && query.contains("replayed=true")) {
                exchange.getResponseHeaders().add("Idempotency-Replayed", "true");
            }
            if (query != null && query.contains("limit_refusal=true")) {
                exchange.getResponseHeaders().add(LimitRefusal.HEADER, "true");
            }
            answer = "{\"data\":{\"method\":\"" + exchange.getRequestMethod() + "\",\"path\":\"" + path
                    + "\",\"query\":" + (query == null ? "null" : "\"" + query + "\"") + ",\"body_length\":"
                    + body.length()
                    + ",\"api_requests_used\":"
                    + (claims.has("api_requests_used")
                            ? claims.get("api_requests_used").asLong()
                            : "null")
                    + "}}";
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.getResponseHeaders().add("x-upstream", "echo");
        if (query != null && query.contains("chunked=true")) {
            // Length 0: the JDK server streams the answer with chunked transfer encoding, as a large list would be.
            exchange.sendResponseHeaders(status, 0);
        } else {
            exchange.sendResponseHeaders(status, bytes.length);
        }
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** posts-service's answer to a keyed POST /posts: its status and body. */
    private static Map.Entry<Integer, String> acceptPost(String key, String body) throws IOException {
        if ("invalid".equals(JSON.readTree(body).path("text").asText())) {
            return Map.entry(
                    422,
                    "{\"error\":{\"code\":\"validation_failed\",\"message\":\"text is invalid.\",\"details\":"
                            + "{\"errors\":[{\"field\":\"text\",\"code\":\"invalid_value\",\"message\":\"No.\"}]}},"
                            + "\"request_id\":\"req_0123456789abcdef01234567\"}");
        }
        String first = ACCEPTED.putIfAbsent(key, body);
        if (first != null && !first.equals(body)) {
            return Map.entry(
                    422,
                    "{\"error\":{\"code\":\"idempotency_key_reused\",\"message\":\"Another body.\",\"details\":{}},"
                            + "\"request_id\":\"req_0123456789abcdef01234567\"}");
        }
        String post = "{\"data\":{\"id\":\"pst_" + HexFormat.of().toHexDigits(key.hashCode()) + "0".repeat(16)
                + "\",\"status\":\"queued\",\"text\":" + JSON.readTree(body).get("text") + "}}";
        return Map.entry(first == null ? 202 : 200, post);
    }

    private static String entitlements(String tenant) {
        long[] limits = ENTITLEMENTS.getOrDefault(tenant, new long[] {30, tenant.endsWith(":test") ? 10_000 : 2_000});
        YearMonth month = YearMonth.now(ZoneOffset.UTC);
        return "{\"data\":{\"plan\":\"free\",\"plan_source\":\"free\",\"period\":{\"start\":\""
                + month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC) + "\",\"end\":\""
                + month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC)
                + "\"},\"rate_limit\":{\"per_minute\":"
                + limits[0] + "},\"api_requests_limit\":" + limits[1] + ",\"concurrent_ingests\":1}}";
    }

    private static String usage(JsonNode claims) {
        String mode = claims.path("mode").asText();
        boolean live = mode.equals("live");
        String plan = USAGE_PLANS.getOrDefault(claims.path("wid").asText() + ":" + mode, "free");
        YearMonth month = YearMonth.now(ZoneOffset.UTC);
        String start = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString();
        String end = month.plusMonths(1)
                .atDay(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC)
                .toString();
        long apiLimit = live ? 2_000 : 10_000;
        long apiUsed = claims.path("api_requests_used").asLong();
        String unlimitedInTest = live ? meter(0, 0, 1_000_000_000L, end) : "null";
        return "{\"data\":{\"mode\":\"" + mode + "\",\"plan\":\"" + plan + "\",\"plan_source\":\"comp\","
                + "\"catalog_version\":\"2026-09\",\"period\":{\"start\":\"" + start + "\",\"end\":\"" + end + "\"},"
                + "\"reset_at\":\"" + end + "\",\"grace_ends_at\":null,"
                + "\"accounts\":{\"used\":1,\"limit\":" + (live ? 2 : 10) + ",\"remaining\":" + (live ? 1 : 9) + "},"
                + "\"publications\":" + meter(7, 3, 20, end) + ",\"api_requests\":" + meter(apiUsed, 0, apiLimit, end)
                + ",\"media_bytes\":" + unlimitedInTest + ",\"comment_requests\":" + unlimitedInTest
                + ",\"new_connections\":" + unlimitedInTest
                + ",\"rate_limit\":{\"per_minute\":30},\"concurrent_ingests\":1}}";
    }

    private static String meter(long used, long reserved, long limit, String resetAt) {
        return "{\"used\":" + used + ",\"reserved\":" + reserved + ",\"limit\":" + limit + ",\"remaining\":"
                + Math.max(limit - used - reserved, 0) + ",\"reset_at\":\"" + resetAt + "\"}";
    }

    /** The catalog's 2026-09 allowances, as usage-service lists them. */
    private static String plans(String mode) {
        boolean live = mode.equals("live");
        String[] plans = {"free", "starter", "growth", "scale"};
        long[] apiRequests = {2_000, 25_000, 100_000, 250_000};
        int[] perMinute = {30, 60, 120, 300};
        StringBuilder answer = new StringBuilder("{\"data\":[");
        for (int i = 0; i < plans.length; i++) {
            answer.append(i == 0 ? "" : ",")
                    .append("{\"plan\":\"")
                    .append(plans[i])
                    .append("\",\"connected_accounts\":10,\"publications\":1000,\"media_bytes\":")
                    .append(live ? "1000000000" : "null")
                    .append(",\"api_requests\":")
                    .append(live ? apiRequests[i] : 10_000)
                    .append(",\"comment_requests\":null,\"new_connections\":null,\"rate_limit\":{\"per_minute\":")
                    .append(perMinute[i])
                    .append("},\"concurrent_ingests\":1}");
        }
        return answer.append("]}").toString();
    }

    private static JsonNode claims(String authorization) {
        try {
            String payload = authorization.substring("Bearer ".length()).split("\\.")[1];
            return JSON.readTree(Base64.getUrlDecoder().decode(payload));
        } catch (Exception e) {
            return JSON.createObjectNode();
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
