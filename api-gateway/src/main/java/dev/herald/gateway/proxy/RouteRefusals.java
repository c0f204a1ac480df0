package dev.herald.gateway.proxy;

import static dev.herald.gateway.routing.RouteCatalog.API_PREFIX;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteMatch;
import dev.herald.gateway.service.Credential;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Refusals of a request for its route itself, in the order they are checked: a matrix parameter or an unknown path
 * ({@code 404}), a method the path does not take ({@code 405}), a scope the credential lacks ({@code 403}), a
 * repeated query parameter ({@code 400}), a body that is not JSON ({@code 415}). Decided before the rate window
 * counts the request and answered after it: such a request is rate limited, never metered.
 */
final class RouteRefusals {
    static final String CHALLENGE = "Bearer realm=\"herald\"";
    private static final Pattern ENCODED_SEPARATOR = Pattern.compile("%(2[fF]|5[cC])");

    private RouteRefusals() {}

    /** Why the request cannot go to its route, or nothing; {@code servicePath} is its path below /api/v1. */
    static Optional<ApiException> of(HttpServerRequest request, String servicePath, RouteMatch match, Credential key) {
        String method = request.method().name();
        if (request.path().indexOf(';') >= 0) {
            // JAX-RS would read "/posts/pst_1;x=1" as the post with a matrix parameter: no id has a ';', so no such
            // route.
            return Optional.of(noSuchRoute(method, servicePath));
        }
        if (ENCODED_SEPARATOR.matcher(request.path()).find()) {
            // "/posts/x%2F..%2F..%2Finternal" is one segment to the catalog but a path to whoever decodes it later: no
            // id has a slash or backslash, so no such route, and nothing of it goes upstream.
            return Optional.of(noSuchRoute(method, servicePath));
        }
        if (match.route().isEmpty()) {
            if (match.pathExists()) {
                return Optional.of(new ApiException(
                        ErrorCode.METHOD_NOT_ALLOWED,
                        method + " is not supported on this route.",
                        Map.of(),
                        Map.of("allow", String.join(", ", match.allowedMethods()))));
            }
            return Optional.of(noSuchRoute(method, servicePath));
        }
        ApiRoute route = match.route().get();
        if (route.scope() != null && !key.scopes().contains(route.scope())) {
            String credential = IdPrefix.API_KEY.matches(key.id()) ? "API key" : "access token";
            return Optional.of(new ApiException(
                    ErrorCode.INSUFFICIENT_SCOPE,
                    "This " + credential + " lacks the " + route.scope() + " scope.",
                    Map.of("required_scope", route.scope()),
                    Map.of(
                            "WWW-Authenticate",
                            CHALLENGE + ", error=\"insufficient_scope\", scope=\"" + route.scope() + "\"")));
        }
        Optional<String> repeated = repeatedQueryParameter(request.query());
        if (repeated.isPresent()) {
            return Optional.of(new ApiException(
                    ErrorCode.INVALID_REQUEST,
                    "The query parameter " + repeated.get() + " is given more than once; send each parameter once.",
                    Map.of("parameter", repeated.get())));
        }
        if (hasBody(request) && !isJson(request.getHeader("content-type"))) {
            return Optional.of(
                    new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "The request body must be application/json."));
        }
        return Optional.empty();
    }

    private static ApiException noSuchRoute(String method, String servicePath) {
        return new ApiException(ErrorCode.NOT_FOUND, "No such route: " + method + " " + API_PREFIX + servicePath + ".");
    }

    /**
     * The first query parameter given more than once. Every parameter of the API is single-valued, and a service
     * that took the first of several values while a cache, proxy or firewall in front took the last would see
     * another request than they did (parameter pollution), so repeating one is {@code 400 invalid_request}.
     */
    static Optional<String> repeatedQueryParameter(String query) {
        if (query == null || query.isEmpty()) {
            return Optional.empty();
        }
        Set<String> seen = new HashSet<>();
        // As the services read a query (Vert.x): ';' separates parameters too, and names are matched ignoring case.
        for (String pair : query.split("[&;]")) {
            if (pair.isEmpty()) {
                continue;
            }
            String name = pair.split("=", 2)[0];
            try {
                name = URLDecoder.decode(name, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // Malformed percent-encoding: compared as sent; the service refuses the parameter itself.
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    private static boolean hasBody(HttpServerRequest request) {
        HttpMethod method = request.method();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            return false;
        }
        String length = request.getHeader("content-length");
        return request.getHeader("transfer-encoding") != null
                || (length != null && !length.trim().equals("0"));
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase();
        return type.equals("application/json");
    }
}
