package dev.herald.gateway.routing;

import java.util.List;

/**
 * One public operation: method, path template (segments; {@code {name}} matches one segment), the scope
 * it needs (null: any active key), the service that serves it, and whether it counts toward the monthly
 * API-request allowance (DESIGN section 3 lists the exempt ones).
 */
public record ApiRoute(String method, String template, String scope, Upstream upstream, boolean metered) {
    static ApiRoute metered(String method, String template, String scope, Upstream upstream) {
        return new ApiRoute(method, template, scope, upstream, true);
    }

    static ApiRoute exempt(String method, String template, String scope, Upstream upstream) {
        return new ApiRoute(method, template, scope, upstream, false);
    }

    List<String> segments() {
        return List.of(template.substring(1).split("/"));
    }
}
