package dev.herald.gateway.routing;

import java.util.List;

/**
 * One public operation: method, path template (segments; {@code {name}} matches one segment), the scope
 * it needs (null: any active key), and the service that serves it.
 */
public record ApiRoute(String method, String template, String scope, Upstream upstream) {
    List<String> segments() {
        return List.of(template.substring(1).split("/"));
    }
}
