package dev.herald.mcp.client;

import dev.herald.mcp.config.McpServerConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpRequest;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one client of the gateway's public API ({@code /api/v1}). Every request carries the MCP caller's own
 * {@code Authorization} header and nothing of this service's: the gateway authenticates it, checks the route's scope,
 * counts it in the key's rate window and meters it exactly as if the caller had sent it.
 */
@ApplicationScoped
public class GatewayClient {
    static final String API_PREFIX = "/api/v1";

    private final WebClient client;
    private final String base;
    private final long timeoutMillis;

    GatewayClient(Vertx vertx, McpServerConfig config) {
        this.client = WebClient.create(
                vertx,
                new WebClientOptions()
                        .setKeepAlive(true)
                        .setFollowRedirects(false)
                        .setUserAgent("herald-mcp-server"));
        String url = config.gatewayUrl().toString();
        this.base = (url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + API_PREFIX;
        this.timeoutMillis = config.gatewayTimeout().toMillis();
    }

    /** Sends {@code request} with {@code authorization} (the caller's header as received; null: none). */
    public Uni<GatewayAnswer> send(String authorization, GatewayRequest request) {
        HttpRequest<Buffer> http = client.requestAbs(HttpMethod.valueOf(request.method()), base + request.path())
                .timeout(timeoutMillis);
        request.query().forEach(http::addQueryParam);
        if (authorization != null) {
            http.putHeader("Authorization", authorization);
        }
        if (request.idempotencyKey() != null) {
            http.putHeader("Idempotency-Key", request.idempotencyKey());
        }
        Uni<HttpResponse<Buffer>> sent = request.body() == null ? http.send() : http.sendJsonObject(request.body());
        return sent.map(response -> new GatewayAnswer(response.statusCode(), response.bodyAsString()));
    }

    @PreDestroy
    void close() {
        client.close();
    }
}
