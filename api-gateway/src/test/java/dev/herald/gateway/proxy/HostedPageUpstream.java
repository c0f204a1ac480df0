package dev.herald.gateway.proxy;

import com.sun.net.httpserver.HttpExchange;
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
 * accounts-service's hosted pages as the gateway sees them: every request under {@code /connect} is answered
 * with a small HTML page naming the method, path and body length, a cookie, and (for POSTs) a 303. The
 * headers of the last request are kept for the test to inspect.
 */
public class HostedPageUpstream implements QuarkusTestResourceLifecycleManager {
    public static final Map<String, String> lastHeaders = new ConcurrentHashMap<>();
    public static final int PER_ADDRESS_PER_MINUTE = 8;
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
        String nobody = "http://127.0.0.1:" + FreePorts.next();
        return Map.of(
                "herald.services.accounts.url", url,
                "herald.services.profiles.url", nobody,
                "herald.services.posts.url", nobody,
                "herald.services.webhooks.url", nobody,
                "herald.services.usage.url", nobody,
                "herald.connect.per-address-per-minute", Integer.toString(PER_ADDRESS_PER_MINUTE));
    }

    private void answer(HttpExchange exchange) throws IOException {
        lastHeaders.clear();
        exchange.getRequestHeaders()
                .forEach((name, values) -> lastHeaders.put(name.toLowerCase(), String.join(",", values)));
        int length = exchange.getRequestBody().readAllBytes().length;
        String page = "<p>" + exchange.getRequestMethod() + " "
                + exchange.getRequestURI().getRawPath() + " " + length + "</p>";
        byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "text/html;charset=UTF-8");
        exchange.getResponseHeaders().add("set-cookie", "herald_connect=bound; Path=/connect; HttpOnly; SameSite=Lax");
        exchange.getResponseHeaders().add("content-security-policy", "frame-ancestors 'none'");
        int status = 200;
        if (exchange.getRequestMethod().equals("POST")) {
            exchange.getResponseHeaders().add("location", "/connect/sessions/cs_1");
            status = 303;
        }
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
}
