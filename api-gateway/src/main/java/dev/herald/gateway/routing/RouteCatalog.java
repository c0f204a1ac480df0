package dev.herald.gateway.routing;

import static dev.herald.common.auth.Scopes.ACCOUNTS_READ;
import static dev.herald.common.auth.Scopes.ACCOUNTS_WRITE;
import static dev.herald.common.auth.Scopes.COMMENTS_READ;
import static dev.herald.common.auth.Scopes.COMMENTS_WRITE;
import static dev.herald.common.auth.Scopes.LOGS_READ;
import static dev.herald.common.auth.Scopes.POSTS_READ;
import static dev.herald.common.auth.Scopes.POSTS_WRITE;
import static dev.herald.common.auth.Scopes.PROFILES_READ;
import static dev.herald.common.auth.Scopes.PROFILES_WRITE;
import static dev.herald.common.auth.Scopes.WEBHOOKS_READ;
import static dev.herald.common.auth.Scopes.WEBHOOKS_WRITE;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every public operation under {@code /api/v1}, with its scope, owning service and metering: the one place
 * that says which key may call what and what it costs. A path not listed here is {@code 404 not_found}; a listed path with an
 * unlisted method is {@code 405 method_not_allowed}.
 */
@ApplicationScoped
public class RouteCatalog {
    /** Where the public API lives; every template below is relative to it. */
    public static final String API_PREFIX = "/api/v1";

    private static final List<ApiRoute> ROUTES = List.of(
            ApiRoute.exempt("GET", "/profiles", PROFILES_READ, Upstream.PROFILES),
            ApiRoute.metered("POST", "/profiles", PROFILES_WRITE, Upstream.PROFILES),
            ApiRoute.exempt("GET", "/profiles/{id}", PROFILES_READ, Upstream.PROFILES),
            ApiRoute.metered("PATCH", "/profiles/{id}", PROFILES_WRITE, Upstream.PROFILES),
            ApiRoute.exempt("DELETE", "/profiles/{id}", PROFILES_WRITE, Upstream.PROFILES),
            ApiRoute.exempt("GET", "/profiles/{id}/queue", PROFILES_READ, Upstream.PROFILES),
            ApiRoute.metered("PUT", "/profiles/{id}/queue", PROFILES_WRITE, Upstream.PROFILES),
            ApiRoute.exempt("DELETE", "/profiles/{id}/queue", PROFILES_WRITE, Upstream.PROFILES),
            ApiRoute.exempt("GET", "/accounts", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("POST", "/accounts", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/accounts/{id}", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("PATCH", "/accounts/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.exempt("DELETE", "/accounts/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.exempt("POST", "/accounts/{id}/analytics-consent", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.metered("POST", "/accounts/{id}/reconnect-link", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.metered("POST", "/accounts/{id}/health-check", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/accounts/{id}/analytics", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/accounts/{id}/publishing-options", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/accounts/{id}/boards", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/accounts/{id}/boards/{board_id}/sections", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("POST", "/connect-sessions", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.exempt("GET", "/connect-sessions/{id}", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.exempt("DELETE", "/connect-sessions/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            // The hosted connect page's branding for the key's workspace and mode (set like a queue: PUT metered).
            ApiRoute.exempt("GET", "/branding", ACCOUNTS_READ, Upstream.ACCOUNTS),
            ApiRoute.metered("PUT", "/branding", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.exempt("DELETE", "/branding", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            ApiRoute.metered("GET", "/posts", POSTS_READ, Upstream.POSTS),
            ApiRoute.metered("POST", "/posts", POSTS_WRITE, Upstream.POSTS),
            // A dry run of POST /posts: one API request, never a publication (posts-service reserves nothing for it).
            ApiRoute.metered("POST", "/posts/validate", POSTS_WRITE, Upstream.POSTS),
            // Up to 100 POST /posts in one request, served by the gateway (PostBatchRoute): not metered itself, since
            // each
            // accepted post counts as one API request of its own.
            ApiRoute.exempt("POST", "/posts/batch", POSTS_WRITE, Upstream.GATEWAY),
            ApiRoute.exempt("GET", "/posts/{id}", POSTS_READ, Upstream.POSTS),
            ApiRoute.exempt("DELETE", "/posts/{id}", POSTS_WRITE, Upstream.POSTS),
            ApiRoute.metered("GET", "/posts/{id}/analytics", POSTS_READ, Upstream.POSTS),
            // A recurring post's series: read and canceled like a post (each copy counts as the post it is).
            ApiRoute.exempt("GET", "/post-series/{id}", POSTS_READ, Upstream.POSTS),
            ApiRoute.exempt("DELETE", "/post-series/{id}", POSTS_WRITE, Upstream.POSTS),
            ApiRoute.metered("GET", "/comments", COMMENTS_READ, Upstream.POSTS),
            ApiRoute.metered("POST", "/comments", COMMENTS_WRITE, Upstream.POSTS),
            ApiRoute.metered("GET", "/webhooks", WEBHOOKS_READ, Upstream.WEBHOOKS),
            ApiRoute.metered("POST", "/webhooks", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            ApiRoute.metered("GET", "/webhooks/{id}", WEBHOOKS_READ, Upstream.WEBHOOKS),
            ApiRoute.metered("PATCH", "/webhooks/{id}", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            ApiRoute.exempt("DELETE", "/webhooks/{id}", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            ApiRoute.metered("POST", "/webhooks/{id}/rotate-secret", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            ApiRoute.metered("POST", "/webhooks/{id}/test", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            // An endpoint's events feed: how a pull endpoint (./herald listen) receives its events, polled every
            // second or two, so exempt like the deliveries a push endpoint receives.
            ApiRoute.exempt("GET", "/webhooks/{id}/events", WEBHOOKS_READ, Upstream.WEBHOOKS),
            ApiRoute.metered("GET", "/deliveries", WEBHOOKS_READ, Upstream.WEBHOOKS),
            ApiRoute.metered("POST", "/deliveries/{id}/retry", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            ApiRoute.metered("GET", "/logs", LOGS_READ, Upstream.GATEWAY),
            ApiRoute.metered("GET", "/usage", null, Upstream.USAGE));

    /** The MCP endpoint (docs/mcp.md), outside {@code /api/v1}: it is no REST operation of the public API. */
    public static final String MCP_PATH = "/mcp";

    /**
     * What {@code /mcp} takes: JSON-RPC messages (POST) and the end of a session (DELETE), with any active credential.
     * Never metered itself, since each tool call is a metered API request of its own; rate limited like every request.
     * No GET: the gateway holds no idle event stream open, and Herald's tools send nothing unasked (MCP lets a server
     * answer such a GET with 405).
     */
    private static final List<ApiRoute> MCP_ROUTES = List.of(
            ApiRoute.exempt("POST", MCP_PATH, null, Upstream.MCP),
            ApiRoute.exempt("DELETE", MCP_PATH, null, Upstream.MCP));

    /** Looks up {@code path}, relative to {@code /api/v1} and starting with a slash. */
    public RouteMatch match(String method, String path) {
        if (path.isEmpty() || path.charAt(0) != '/' || path.endsWith("/") || path.contains("//")) {
            return new RouteMatch(Optional.empty(), new TreeSet<>());
        }
        return match(ROUTES, method, path);
    }

    /** Looks up a request to {@link #MCP_PATH}. */
    public RouteMatch matchMcp(String method) {
        return match(MCP_ROUTES, method, MCP_PATH);
    }

    private static RouteMatch match(List<ApiRoute> routes, String method, String path) {
        List<String> segments = List.of(path.substring(1).split("/"));
        TreeSet<String> allowed = new TreeSet<>();
        for (ApiRoute route : routes) {
            if (matches(route.segments(), segments)) {
                if (route.method().equals(method)) {
                    return new RouteMatch(Optional.of(route), Set.of());
                }
                allowed.add(route.method());
            }
        }
        return new RouteMatch(Optional.empty(), allowed);
    }

    /** A request's normalized path (no dot segments, no double slashes) below {@link #API_PREFIX}, as {@link #match} takes it. */
    public static String servicePath(String normalizedPath) {
        return normalizedPath.length() > API_PREFIX.length() ? normalizedPath.substring(API_PREFIX.length()) : "";
    }

    public List<ApiRoute> routes() {
        return ROUTES;
    }

    private static boolean matches(List<String> template, List<String> path) {
        if (template.size() != path.size()) {
            return false;
        }
        for (int i = 0; i < template.size(); i++) {
            String expected = template.get(i);
            String actual = path.get(i);
            boolean variable = expected.startsWith("{");
            if (actual.isEmpty() || (!variable && !expected.equals(actual))) {
                return false;
            }
        }
        return true;
    }
}
