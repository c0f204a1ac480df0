package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.gateway.config.PostBatchConfig;
import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.routing.Upstream;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * {@code POST /api/v1/posts/batch}, served by the gateway after admission (the catalog's {@code Upstream.GATEWAY}, not
 * metered itself): up to 100 posts in one request, each created as {@code POST /posts} would create it
 * ({@link PostBatchItems}), answered {@code 200 { data: [ PostBatchItem... ] }} in request order with the rate-limit
 * headers the last post left. Its body may be larger than other routes' ({@link PostBatchConfig}).
 */
@ApplicationScoped
class PostBatchRoute {
    static final String TEMPLATE = "/posts/batch";

    private final PostBatchItems items;
    private final RateLimitHeaders rateLimitHeaders;
    private final GatewayErrors errors;
    private final ObjectMapper mapper;
    private final int maxBodyBytes;

    PostBatchRoute(
            PostBatchItems items,
            RateLimitHeaders rateLimitHeaders,
            GatewayErrors errors,
            ObjectMapper mapper,
            PostBatchConfig config) {
        this.items = items;
        this.rateLimitHeaders = rateLimitHeaders;
        this.errors = errors;
        this.mapper = mapper;
        this.maxBodyBytes =
                (int) Math.min(Integer.MAX_VALUE, config.maxBodySize().asLongValue());
    }

    boolean serves(ApiRoute route) {
        return route.upstream() == Upstream.GATEWAY && route.template().equals(TEMPLATE);
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    void serve(RoutingContext rc, AdmittedRequest admitted, Buffer body) {
        List<PostBatchReader.Item> posts;
        try {
            posts = PostBatchReader.read(body.getBytes(), mapper);
        } catch (ApiException refusal) {
            errors.send(rc, refusal);
            return;
        }
        Uni.createFrom()
                .deferred(() -> items.run(rc, admitted.key(), posts))
                .subscribe()
                .with(
                        outcome -> {
                            if (outcome.rateLimit() != null) {
                                rateLimitHeaders.set(rc, outcome.rateLimit());
                            }
                            try {
                                rc.response()
                                        .setStatusCode(200)
                                        .putHeader("content-type", "application/json")
                                        .end(mapper.writeValueAsString(DataEnvelope.of(outcome.answers())));
                            } catch (JsonProcessingException e) {
                                errors.internalError(rc, e);
                            }
                        },
                        failure -> errors.internalError(rc, failure));
    }
}
