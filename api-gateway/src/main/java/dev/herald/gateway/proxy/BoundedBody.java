package dev.herald.gateway.proxy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Reads a request's body whole, up to a limit, before anything acts on it: an oversized request is refused as soon as
 * it declares or sends too much, never half-read. The gateway's API routes, hosted pages and token endpoint share it.
 */
public final class BoundedBody {
    private static final Logger LOG = Logger.getLogger(BoundedBody.class);

    private BoundedBody() {}

    /**
     * Calls {@code whole} with the body once all of it has arrived, or {@code tooLarge} once, as soon as the request
     * declares ({@code Content-Length}) or sends more than {@code maxBytes}. Resumes the request if it was paused.
     */
    public static void read(RoutingContext rc, int maxBytes, Consumer<Buffer> whole, Runnable tooLarge) {
        HttpServerRequest request = rc.request();
        String declared = request.getHeader("content-length");
        if (declared != null && declared.trim().matches("\\d{1,18}") && Long.parseLong(declared.trim()) > maxBytes) {
            request.resume();
            tooLarge.run();
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] refused = {false};
        request.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if (body.length() + chunk.length() > maxBytes) {
                refused[0] = true;
                tooLarge.run();
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(
                failure -> LOG.debugf("request %s: body not received: %s", request.getHeader("x-request-id"), failure));
        request.endHandler(ended -> {
            if (!refused[0]) {
                whole.accept(body);
            }
        });
        request.resume();
    }
}
