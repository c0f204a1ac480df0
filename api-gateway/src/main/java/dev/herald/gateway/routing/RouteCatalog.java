package dev.herald.gateway.routing;

import static dev.herald.common.auth.Scopes.ACCOUNTS_READ;
import static dev.herald.common.auth.Scopes.ACCOUNTS_WRITE;
import static dev.herald.common.auth.Scopes.COMMENTS_READ;
import static dev.herald.common.auth.Scopes.COMMENTS_WRITE;
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
 * Every public operation under {@code /api/v1}, with its scope and owning service: the one place that
 * says which key may call what. A path not listed here is {@code 404 not_found}; a listed path with an
 * unlisted method is {@code 405 method_not_allowed}.
 */
@ApplicationScoped
public class RouteCatalog {
    private static final List<ApiRoute> ROUTES = List.of(
            new ApiRoute("GET", "/profiles", PROFILES_READ, Upstream.PROFILES),
            new ApiRoute("POST", "/profiles", PROFILES_WRITE, Upstream.PROFILES),
            new ApiRoute("GET", "/profiles/{id}", PROFILES_READ, Upstream.PROFILES),
            new ApiRoute("PATCH", "/profiles/{id}", PROFILES_WRITE, Upstream.PROFILES),
            new ApiRoute("DELETE", "/profiles/{id}", PROFILES_WRITE, Upstream.PROFILES),

            new ApiRoute("GET", "/accounts", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("POST", "/accounts", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            new ApiRoute("GET", "/accounts/{id}", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("PATCH", "/accounts/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            new ApiRoute("DELETE", "/accounts/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            new ApiRoute("POST", "/accounts/{id}/analytics-consent", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            new ApiRoute("GET", "/accounts/{id}/publishing-options", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("GET", "/accounts/{id}/boards", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("GET", "/accounts/{id}/boards/{board_id}/sections", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("POST", "/connect-sessions", ACCOUNTS_WRITE, Upstream.ACCOUNTS),
            new ApiRoute("GET", "/connect-sessions/{id}", ACCOUNTS_READ, Upstream.ACCOUNTS),
            new ApiRoute("DELETE", "/connect-sessions/{id}", ACCOUNTS_WRITE, Upstream.ACCOUNTS),

            new ApiRoute("GET", "/posts", POSTS_READ, Upstream.POSTS),
            new ApiRoute("POST", "/posts", POSTS_WRITE, Upstream.POSTS),
            new ApiRoute("GET", "/posts/{id}", POSTS_READ, Upstream.POSTS),
            new ApiRoute("DELETE", "/posts/{id}", POSTS_WRITE, Upstream.POSTS),
            new ApiRoute("GET", "/comments", COMMENTS_READ, Upstream.POSTS),
            new ApiRoute("POST", "/comments", COMMENTS_WRITE, Upstream.POSTS),

            new ApiRoute("GET", "/webhooks", WEBHOOKS_READ, Upstream.WEBHOOKS),
            new ApiRoute("POST", "/webhooks", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            new ApiRoute("GET", "/webhooks/{id}", WEBHOOKS_READ, Upstream.WEBHOOKS),
            new ApiRoute("DELETE", "/webhooks/{id}", WEBHOOKS_WRITE, Upstream.WEBHOOKS),
            new ApiRoute("GET", "/deliveries", WEBHOOKS_READ, Upstream.WEBHOOKS),

            new ApiRoute("GET", "/usage", null, Upstream.USAGE));

    /** Looks up {@code path}, relative to {@code /api/v1} and starting with a slash. */
    public RouteMatch match(String method, String path) {
        if (path.isEmpty() || path.charAt(0) != '/' || path.endsWith("/") || path.contains("//")) {
            return new RouteMatch(Optional.empty(), new TreeSet<>());
        }
        List<String> segments = List.of(path.substring(1).split("/"));
        TreeSet<String> allowed = new TreeSet<>();
        for (ApiRoute route : ROUTES) {
            if (matches(route.segments(), segments)) {
                if (route.method().equals(method)) {
                    return new RouteMatch(Optional.of(route), Set.of());
                }
                allowed.add(route.method());
            }
        }
        return new RouteMatch(Optional.empty(), allowed);
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
