package dev.herald.fakes.rest;

import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.service.FakeProviders;
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
import java.util.regex.Pattern;

/**
 * Every fake platform's endpoints: {@code /<platform>/<the platform's own path>}. Herald's configurable base URLs
 * point at these prefixes (docs/local-runtime.md lists them); each platform's fake routes the rest itself. A plain
 * Vert.x route rather than JAX-RS resources, so paths keep their exact shape: TikTok's and Pinterest's trailing
 * slashes, Graph's {@code /{node-id}/{edge}}.
 */
@ApplicationScoped
public class PlatformEndpoints {
    /** The platforms' requests are small JSON or form bodies (media bytes go to the upload routes). */
    private static final long MAX_BODY_BYTES = 1024 * 1024;

    private final FakeProviders providers;

    public PlatformEndpoints(FakeProviders providers) {
        this.providers = providers;
    }

    void routes(@Observes Router router) {
        for (String platform : providers.platforms()) {
            String uploads = providers.fake(platform).uploadPathPrefix();
            if (uploads != null) {
                // Registered first, so media bytes never reach the body handler: they are counted and hashed as they come.
                router.routeWithRegex("/" + platform + Pattern.quote(uploads) + ".*").handler(this::upload);
            }
        }
        String platforms = String.join("|", providers.platforms());
        router.routeWithRegex("/(" + platforms + ")(/.*)?").handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
                .handler(this::handle);
    }

    /** A media upload: read as a stream, of any size, and handed on as its byte count and SHA-256. */
    private void upload(RoutingContext context) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            context.fail(e);
            return;
        }
        long[] bytes = {0};
        context.request().handler(buffer -> {
            digest.update(buffer.getBytes());
            bytes[0] += buffer.length();
        });
        context.request().exceptionHandler(context::fail);
        context.request().endHandler(ended -> handle(context,
                FakeRequest.uploadSummary(bytes[0], HexFormat.of().formatHex(digest.digest()))));
        // The router holds a request's body until a handler asks for it.
        context.request().resume();
    }

    private void handle(RoutingContext context) {
        String body = context.body() == null ? null : context.body().asString();
        handle(context, body == null || body.isEmpty() ? null : body);
    }

    private void handle(RoutingContext context, String body) {
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
                context.request().query(), headers, body, null);
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
