package dev.herald.gateway.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.rest.RequestIds;
import dev.herald.gateway.config.ServicesConfig;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.RouteCatalog;
import dev.herald.gateway.routing.Upstream;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.EntitlementsCache;
import dev.herald.gateway.service.RequestAdmission;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.jboss.logging.Logger;

/**
 * Calls the public API's operations for a signed-in dashboard member: the route catalog says which service owns an
 * operation and which scope it needs, exactly as for an API key, and the service gets an internal token for the
 * member's workspace, mode and role (never a customer's key). Nothing here is metered or rate limited as an API
 * request: the page that made the call was counted once in the dashboard's own window.
 */
@ApplicationScoped
public class MemberApiClient {
    private static final Logger LOG = Logger.getLogger(MemberApiClient.class);
    private static final String API_REQUESTS_USED_CLAIM = "api_requests_used";

    private final RouteCatalog catalog;
    private final InternalTokens tokens;
    private final EntitlementsCache entitlements;
    private final RequestAdmission admission;
    private final ObjectMapper mapper;
    private final HttpClient client;
    private final long idleTimeoutMillis;
    private final Map<Upstream, URI> upstreams = new EnumMap<>(Upstream.class);

    public MemberApiClient(
            RouteCatalog catalog,
            InternalTokens tokens,
            EntitlementsCache entitlements,
            RequestAdmission admission,
            ObjectMapper mapper,
            Vertx vertx,
            ServicesConfig config) {
        this.catalog = catalog;
        this.tokens = tokens;
        this.entitlements = entitlements;
        this.admission = admission;
        this.mapper = mapper;
        this.idleTimeoutMillis = config.idleTimeout().toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setKeepAlive(true)
                .setMaxPoolSize(8));
        upstreams.put(Upstream.PROFILES, config.profiles().url());
        upstreams.put(Upstream.ACCOUNTS, config.accounts().url());
        upstreams.put(Upstream.POSTS, config.posts().url());
        upstreams.put(Upstream.WEBHOOKS, config.webhooks().url());
        upstreams.put(Upstream.USAGE, config.usage().url());
    }

    public Uni<ApiAnswer> get(DashboardCaller caller, String apiPath, Map<String, String> query) {
        return call(caller, "GET", apiPath, query, null, Map.of());
    }

    /** {@code GET} of one resource parsed into its wire record; the API's errors as in {@link ApiAnswer#orRefuse()}. */
    public <T> Uni<T> read(DashboardCaller caller, String apiPath, Class<T> type) {
        return get(caller, apiPath, Map.of()).map(answer -> data(answer, type));
    }

    /** {@code GET} of a list's page parsed into wire records; the API's errors as in {@link ApiAnswer#orRefuse()}. */
    public <T> Uni<ApiPage<T>> list(DashboardCaller caller, String apiPath, Map<String, String> query, Class<T> type) {
        return get(caller, apiPath, query).map(answer -> page(answer, type));
    }

    /** A success's {@code data} as a wire record; an error as in {@link ApiAnswer#orRefuse()}. */
    public <T> T data(ApiAnswer answer, Class<T> type) {
        return mapper.convertValue(answer.orRefuse().data(), type);
    }

    /** A success's list page as wire records; an error as in {@link ApiAnswer#orRefuse()}. */
    public <T> ApiPage<T> page(ApiAnswer answer, Class<T> type) {
        ApiAnswer ok = answer.orRefuse();
        List<T> items =
                mapper.convertValue(ok.data(), mapper.getTypeFactory().constructCollectionType(List.class, type));
        String next = ok.body().path("meta").path("next_cursor").asText(null);
        return new ApiPage<>(items == null ? List.of() : items, next);
    }

    /** {@code body} is serialized as JSON; null sends none. */
    public Uni<ApiAnswer> send(DashboardCaller caller, String method, String apiPath, Object body) {
        return send(caller, method, apiPath, body, Map.of());
    }

    /** As {@link #send(DashboardCaller, String, String, Object)} with request headers, e.g. {@code Idempotency-Key}. */
    public Uni<ApiAnswer> send(
            DashboardCaller caller, String method, String apiPath, Object body, Map<String, String> headers) {
        return call(caller, method, apiPath, Map.of(), body, headers);
    }

    /** Whether the member's role may call the operation at all (pages hide what it cannot). */
    public boolean allows(DashboardCaller caller, String method, String apiPath) {
        ApiRoute route = route(method, apiPath);
        return route.scope() == null || caller.role().scopes().contains(route.scope());
    }

    private Uni<ApiAnswer> call(
            DashboardCaller caller,
            String method,
            String apiPath,
            Map<String, String> query,
            Object body,
            Map<String, String> headers) {
        ApiRoute route = route(method, apiPath);
        if (!allows(caller, method, apiPath)) {
            return Uni.createFrom()
                    .failure(DashboardRefusal.forbidden("Your role ("
                            + caller.role().wireName() + ") cannot do this in the workspace. Ask one of its owners."));
        }
        return token(caller, route)
                .flatMap(jwt -> exchange(route.upstream(), method, apiPath, query, body, headers, jwt))
                .onFailure(failure -> !(failure instanceof DashboardRefusal))
                .transform(failure -> {
                    LOG.warnf("dashboard call %s %s failed: %s", method, route.template(), failure.toString());
                    return DashboardRefusal.unavailable();
                });
    }

    private ApiRoute route(String method, String apiPath) {
        ApiRoute route = catalog.match(method, apiPath)
                .route()
                .orElseThrow(() -> new IllegalArgumentException("no API operation " + method + " " + apiPath));
        if (route.upstream() == Upstream.GATEWAY) {
            throw new IllegalArgumentException(apiPath + " is the gateway's own: read it in process");
        }
        return route;
    }

    private Uni<String> token(DashboardCaller caller, ApiRoute route) {
        InternalToken token = new InternalToken(
                caller.workspaceId(),
                caller.mode(),
                caller.member().id,
                caller.role().scopes());
        if (!route.template().equals("/usage")) {
            return Uni.createFrom().item(() -> tokens.issuer().issue(token));
        }
        // GET /usage shows the API requests the gateway counted, as it does for a key (ApiForwarding).
        return entitlements
                .get(caller.workspaceId(), caller.mode())
                .flatMap(plan -> admission.meteredUsed(
                        caller.workspaceId(), caller.mode(), plan.period().start()))
                .map(used -> tokens.issuer().issue(token, Map.of(API_REQUESTS_USED_CLAIM, used)));
    }

    private Uni<ApiAnswer> exchange(
            Upstream upstream,
            String method,
            String apiPath,
            Map<String, String> query,
            Object body,
            Map<String, String> headers,
            String jwt) {
        String base = upstreams.get(upstream).toString().replaceAll("/+$", "");
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(method))
                .setAbsoluteURI(base + apiPath + queryString(query))
                .setIdleTimeout(idleTimeoutMillis)
                .setFollowRedirects(false)
                .putHeader("authorization", "Bearer " + jwt)
                .putHeader(RequestIds.HEADER, RequestIds.newRequestId())
                .putHeader("accept", "application/json");
        headers.forEach(options::putHeader);
        Buffer payload;
        try {
            payload = body == null ? null : Buffer.buffer(mapper.writeValueAsBytes(body));
        } catch (Exception e) {
            return Uni.createFrom().failure(e);
        }
        if (payload != null) {
            options.putHeader("content-type", "application/json");
        }
        return client.request(options)
                .flatMap(request -> payload == null ? request.send() : request.send(payload))
                .flatMap(response -> response.body().map(buffer -> {
                    try {
                        JsonNode json = buffer.length() == 0 ? null : mapper.readTree(buffer.getBytes());
                        return ApiAnswer.of(response.statusCode(), json);
                    } catch (Exception e) {
                        throw new IllegalStateException(
                                upstream + " answered " + response.statusCode() + " with a body that is not JSON");
                    }
                }));
    }

    /** {@code ?name=value&...} of the non-empty values, URL-encoded ({@code ""} when none): also a page's own links. */
    public static String queryString(Map<String, String> query) {
        StringJoiner joined = new StringJoiner("&", "?", "").setEmptyValue("");
        query.forEach((name, value) -> {
            if (value != null && !value.isEmpty()) {
                joined.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        });
        return joined.toString();
    }

    @PreDestroy
    void close() {
        client.closeAndForget();
    }
}
