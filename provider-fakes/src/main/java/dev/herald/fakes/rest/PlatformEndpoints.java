package dev.herald.fakes.rest;

import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.service.FakeProviders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every fake platform's endpoints: {@code /<platform>/<the platform's own path>}. Herald's configurable base URLs
 * point at these prefixes (docs/local-runtime.md lists them); each platform's fake routes the rest itself. A plain
 * Vert.x route rather than JAX-RS resources, so paths keep their exact shape: TikTok's and Pinterest's trailing
 * slashes, Graph's {@code /{node-id}/{edge}}.
 */
@ApplicationScoped
public class PlatformEndpoints {
    /** The platforms' requests are small JSON or form bodies (media travel by URL, or by {@link #UPLOADS}). */
    private static final long MAX_BODY_BYTES = 1024 * 1024;
    /** Where Herald uploads a video's bytes itself: TikTok's upload URL (what its video init answers). */
    private static final String UPLOADS = "/tiktok/upload/?";

    private final FakeProviders providers;

    public PlatformEndpoints(FakeProviders providers) {
        this.providers = providers;
    }

    void routes(@Observes Router router) {
        String platforms = String.join("|", providers.platforms());
        // First, so the small-body route below never buffers a video.
        router.routeWithRegex(HttpMethod.PUT, UPLOADS).handler(this::upload);
        router.routeWithRegex("/(" + platforms + ")(/.*)?").handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
                .handler(this::handle);
    }

    /** A media upload's bytes are counted and hashed as they stream in, never held. */
    private void upload(RoutingContext context) {
        MessageDigest digest = sha256();
        long[] bytes = {0};
        context.request().handler(buffer -> {
            bytes[0] += buffer.length();
            digest.update(buffer.getBytes());
        });
        context.request().exceptionHandler(context::fail);
        context.request().endHandler(done -> dispatch(context, null,
                new FakeRequest.Upload(bytes[0], HexFormat.of().formatHex(digest.digest()))));
        context.request().resume();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void handle(RoutingContext context) {
        String body = context.body() == null ? null : context.body().asString();
        dispatch(context, body == null || body.isEmpty() ? null : body, null);
    }

    private void dispatch(RoutingContext context, String body, FakeRequest.Upload upload) {
        String fullPath = context.request().path();
        int slash = fullPath.indexOf('/', 1);
        String platform = slash < 0 ? fullPath.substring(1) : fullPath.substring(1, slash);
        String path = slash < 0 ? "/" : fullPath.substring(slash);
        Map<String, List<String>> query = new LinkedHashMap<>();
        context.queryParams().names().forEach(name -> query.put(name, List.copyOf(context.queryParams().getAll(name))));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        context.request().headers().names().forEach(name -> headers.put(name.toLowerCase(),
                List.copyOf(context.request().headers().getAll(name))));
        FakeRequest request = new FakeRequest(platform, context.request().method().name(), path, Map.copyOf(query),
                context.request().query(), headers, body, null, upload);
        providers.handle(request).subscribe().with(answer -> respond(context.response(), answer), context::fail);
    }

    private static void respond(HttpServerResponse response, FakeResponse answer) {
        response.setStatusCode(answer.status());
        answer.headers().forEach(response::putHeader);
        if (answer.body() == null) {
            response.end();
        } else {
            response.putHeader("Content-Type", answer.contentType()).end(answer.body());
        }
    }
}
