package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.MCP_PATH;

import dev.herald.common.api.ErrorCode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * {@code /mcp}: the MCP endpoint (streamable HTTP, docs/mcp.md), served by mcp-server. Admitted like any API request
 * ({@link ApiAdmission}: a valid credential, the key's rate window; never metered itself), then forwarded with the
 * caller's credential, which mcp-server uses to call the public API for each tool. JSON-RPC messages are small: at most
 * 1 MiB is read, as for the API.
 */
@ApplicationScoped
class McpRoute {
    private final ApiAdmission admission;
    private final ServiceProxy proxy;
    private final GatewayErrors errors;

    McpRoute(ApiAdmission admission, ServiceProxy proxy, GatewayErrors errors) {
        this.admission = admission;
        this.proxy = proxy;
        this.errors = errors;
    }

    void register(@Observes Router router) {
        router.route(MCP_PATH)
                .order(-100)
                .handler(admission::admitMcp)
                .handler(this::readBodyAndForward)
                .failureHandler(rc -> errors.internalError(rc, rc.failure()));
    }

    private void readBodyAndForward(RoutingContext rc) {
        BoundedBody.read(rc, ApiForwarding.MAX_BODY_BYTES, body -> proxy.forwardMcp(rc, body), () -> {
            rc.response().putHeader("connection", "close");
            errors.send(rc, ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than 1 MiB.");
        });
    }
}
