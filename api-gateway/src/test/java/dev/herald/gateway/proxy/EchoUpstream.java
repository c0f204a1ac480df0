package dev.herald.gateway.proxy;

import com.sun.net.httpserver.HttpServer;
import dev.herald.local.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for the services behind the gateway: answers every request with 200 and a JSON echo of what
 * it received (method, path, query, body) and remembers the headers of the last request, so tests can
 * check what the gateway forwards. The accounts service is pointed at a port nobody listens on.
 */
public class EchoUpstream implements QuarkusTestResourceLifecycleManager {
    public static final Map<String, String> lastHeaders = new ConcurrentHashMap<>();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            lastHeaders.clear();
            exchange.getRequestHeaders().forEach((name, values) -> lastHeaders.put(name.toLowerCase(), String.join(",", values)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String query = exchange.getRequestURI().getRawQuery();
            String echo = "{\"data\":{\"method\":\"" + exchange.getRequestMethod() + "\",\"path\":\"" + exchange.getRequestURI().getRawPath()
                    + "\",\"query\":" + (query == null ? "null" : "\"" + query + "\"") + ",\"body_length\":" + body.length() + "}}";
            byte[] bytes = echo.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.getResponseHeaders().add("x-upstream", "echo");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "herald.services.profiles.url", url,
                "herald.services.posts.url", url,
                "herald.services.webhooks.url", url,
                "herald.services.usage.url", url,
                "herald.services.accounts.url", "http://127.0.0.1:" + FreePorts.next());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
