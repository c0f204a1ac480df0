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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for the services behind the gateway. It answers every request with a JSON echo of what it
 * received (method, path, query, body length, and the {@code api_requests_used} claim of the internal JWT)
 * and remembers the headers of the last request. {@code ?status=N} makes it answer with status N and
 * {@code ?replayed=true} with {@code Idempotency-Replayed: true}, {@code ?limit_refusal=true} marks a limit refusal; {@code ?chunked=true} streams the
 * answer without a Content-Length. As usage-service it answers
 * {@code /internal/entitlements} from {@link #ENTITLEMENTS} (free plan when absent) and echoes
 * {@code PUT /internal/subscription}. The accounts service is pointed at a port nobody listens on.
 */
public class EchoUpstream implements QuarkusTestResourceLifecycleManager {
    public static final Map<String, String> lastHeaders = new ConcurrentHashMap<>();
    /** "workspace:mode" -> {per_minute, api_requests_limit}. */
    public static final Map<String, long[]> ENTITLEMENTS = new ConcurrentHashMap<>();

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

    private static String entitlements(String tenant) {
        long[] limits = ENTITLEMENTS.getOrDefault(tenant, new long[] {30, tenant.endsWith(":test") ? 10_000 : 2_000});
        YearMonth month = YearMonth.now(ZoneOffset.UTC);
        return "{\"data\":{\"plan\":\"free\",\"plan_source\":\"free\",\"period\":{\"start\":\""
                + month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC) + "\",\"end\":\""
                + month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC)
                + "\"},\"rate_limit\":{\"per_minute\":"
                + limits[0] + "},\"api_requests_limit\":" + limits[1] + ",\"concurrent_ingests\":1}}";
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
