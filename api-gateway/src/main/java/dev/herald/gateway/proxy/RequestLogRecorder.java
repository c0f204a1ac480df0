package dev.herald.gateway.proxy;

import dev.herald.common.rest.RequestIds;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.RequestLog;
import dev.herald.gateway.repository.RequestLogStatements;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RequestLogWriter;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/**
 * Puts every request made with a credential in its workspace's request log ({@code GET /logs}) once its answer is
 * complete, whatever it was: refusals too, the rate limit's and the allowance's included.
 */
@ApplicationScoped
class RequestLogRecorder {
    private final RequestLogWriter logWriter;
    private final Clock clock;

    RequestLogRecorder(RequestLogWriter logWriter, Clock clock) {
        this.logWriter = logWriter;
        this.clock = clock;
    }

    void logWhenAnswered(RoutingContext rc, Credential key) {
        Instant received = Timestamps.now(clock);
        long started = System.nanoTime();
        String requestId = rc.request().getHeader(RequestIds.HEADER);
        String method = rc.request().method().name();
        String path = rc.normalizedPath();
        rc.addEndHandler(ended -> {
            int durationMs = (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - started) / 1_000_000);
            logWriter.append(new RequestLogStatements.Entry(
                    key.workspaceId(),
                    new RequestLog(
                            requestId,
                            method,
                            path,
                            rc.response().getStatusCode(),
                            durationMs,
                            key.id(),
                            key.mode(),
                            received)));
        });
    }
}
