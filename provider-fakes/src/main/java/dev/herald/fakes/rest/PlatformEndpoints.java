package dev.herald.fakes.rest;

import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.ReceivedBytes;
import dev.herald.fakes.service.FakeProviders;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
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
    /** The platforms' API requests are small JSON or form bodies; media bytes go to upload endpoints, streamed. */
    private static final long MAX_BODY_BYTES = 1024 * 1024;

    private final FakeProviders providers;

    public PlatformEndpoints(FakeProviders providers) {
        this.providers = providers;
    }

    void routes(@Observes Router router) {
        String platforms = String.join("|", providers.platforms());
        // Two routes: Vert.x takes a body handler only first on its route, and an upload must not meet one.
        router.routeWithRegex("/(" + platforms + ")(/.*)?").order(-1).handler(this::uploadOrNext);
        router.routeWithRegex("/(" + platforms + ")(/.*)?")
                .handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
                .handler(context -> handle(context, bodyOf(context), null));
    }

    /** An upload's body is counted and hashed as it streams in; any other request goes on to be read whole. */
    private void uploadOrNext(RoutingContext context) {
        HttpServerRequest request = context.request();
        Target target = Target.of(request.path());
        if (!providers.fake(target.platform()).receivesBytes(request.method().name(), target.path())) {
            context.next();
            return;
        }
        MessageDigest digest = sha256();
        long[] size = {0};
        request.handler(chunk -> {
            digest.update(chunk.getBytes());
            size[0] += chunk.length();
        });
        request.exceptionHandler(context::fail);
        request.endHandler(ended ->
                handle(context, null, new ReceivedBytes(size[0], HexFormat.of().formatHex(digest.digest()))));
        request.resume();
    }

    private void handle(RoutingContext context, String body, ReceivedBytes upload) {
        Target target = Target.of(context.request().path());
        Map<String, List<String>> query = new LinkedHashMap<>();
        context.queryParams()
                .names()
                .forEach(name ->
                        query.put(name, List.copyOf(context.queryParams().getAll(name))));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        context.request()
                .headers()
                .names()
                .forEach(name -> headers.put(
                        name.toLowerCase(),
                        List.copyOf(context.request().headers().getAll(name))));
        FakeRequest request = new FakeRequest(
                target.platform(),
                context.request().method().name(),
                target.path(),
                Map.copyOf(query),
                context.request().query(),
                headers,
                body,
                upload,
                null);
        providers.handle(request).subscribe().with(answer -> respond(context.response(), answer), context::fail);
    }

    private static String bodyOf(RoutingContext context) {
        String body = context.body() == null ? null : context.body().asString();
        return body == null || body.isEmpty() ? null : body;
    }

    /** {@code /<platform><path>}: the platform's name and its own path. */
    private record Target(String platform, String path) {
        static Target of(String fullPath) {
            int slash = fullPath.indexOf('/', 1);
            return new Target(
                    slash < 0 ? fullPath.substring(1) : fullPath.substring(1, slash),
                    slash < 0 ? "/" : fullPath.substring(slash));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void respond(HttpServerResponse response, FakeResponse answer) {
        response.setStatusCode(answer.status());
        String huge = answer.headers().get(FakeResponse.HUGE_BODY_HEADER);
        if (huge != null) {
            respondHuge(
                    response,
                    Long.parseLong(huge),
                    Boolean.parseBoolean(answer.headers().get(FakeResponse.HUGE_CHUNKED_HEADER)));
            return;
        }
        answer.headers().forEach(response::putHeader);
        if (answer.body() == null) {
            response.end();
        } else {
            response.putHeader("Content-Type", answer.contentType()).end(answer.body());
        }
    }

    /**
     * A JSON-looking body of {@code bytes} bytes, written with back-pressure in 64 KiB pieces, so the fake holds none of
     * it; a caller that stops reading (closes) stops it.
     */
    private static void respondHuge(HttpServerResponse response, long bytes, boolean chunked) {
        response.putHeader("Content-Type", "application/json");
        if (chunked) {
            response.setChunked(true);
        } else {
            response.putHeader("Content-Length", Long.toString(bytes));
        }
        Buffer piece = Buffer.buffer(" ".repeat(64 * 1024));
        long[] sent = {0};
        Runnable[] more = new Runnable[1];
        more[0] = () -> {
            while (sent[0] < bytes && !response.writeQueueFull() && !response.closed()) {
                int size = (int) Math.min(piece.length(), bytes - sent[0]);
                response.write(
                        sent[0] == 0 ? Buffer.buffer("{").appendBuffer(piece.slice(1, size)) : piece.slice(0, size));
                sent[0] += size;
            }
            if (sent[0] >= bytes) {
                response.end();
            } else if (!response.closed()) {
                response.drainHandler(drained -> more[0].run());
            }
        };
        more[0].run();
    }
}
