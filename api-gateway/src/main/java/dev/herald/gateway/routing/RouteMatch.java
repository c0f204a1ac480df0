package dev.herald.gateway.routing;

import java.util.Optional;
import java.util.Set;

/** The outcome of looking a request up: the route, or the methods the path does allow (none: unknown path). */
public record RouteMatch(Optional<ApiRoute> route, Set<String> allowedMethods) {
    public boolean pathExists() {
        return route.isPresent() || !allowedMethods.isEmpty();
    }
}
