package dev.herald.gateway.proxy;

import dev.herald.gateway.config.HostedPagesConfig;
import dev.herald.gateway.routing.Upstream;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /connect/**}: the hosted connect pages, for a customer's end users, who have no API key (the private
 * link is the credential). Passed to accounts-service as they are, with no internal token, no metering and no
 * per-workspace rate limit; only a per-address limit, counted in memory per calendar minute. Form bodies are
 * small, so at most 64 KiB is read.
 */
@ApplicationScoped
public class HostedPageRoutes {
    public static final String PREFIX = "/connect";
    static final int MAX_BODY_BYTES = 64 * 1024;

    private final ServiceProxy proxy;
    private final HostedPagesConfig config;
    private final Clock clock;
    private final Map<String, AtomicInteger> requestsThisMinute = new ConcurrentHashMap<>();
    private final AtomicLong currentMinute = new AtomicLong();

    public HostedPageRoutes(ServiceProxy proxy, HostedPagesConfig config, Clock clock) {
        this.proxy = proxy;
        this.config = config;
        this.clock = clock;
    }

    void register(@Observes Router router) {
        router.route(PREFIX + "/*").order(-100).handler(this::forward);
    }

    private void forward(RoutingContext rc) {
        if (!withinLimit(rc.request().remoteAddress().hostAddress())) {
            long retryAfter = 60 - clock.instant().getEpochSecond() % 60;
            page(rc, 429)
                    .putHeader("Retry-After", Long.toString(retryAfter))
                    .end(pageBody(
                            "Too many requests",
                            "Too many requests came from your network. Wait a minute and try again."));
            return;
        }
        BoundedBody.read(
                rc, MAX_BODY_BYTES, body -> proxy.forwardHostedPage(rc, Upstream.ACCOUNTS, body), () -> tooLarge(rc));
    }

    /** Fixed calendar-minute windows; the whole map is dropped when a new minute starts, so it never grows old entries. */
    boolean withinLimit(String address) {
        long minute = clock.instant().getEpochSecond() / 60;
        long seen = currentMinute.get();
        if (minute != seen && currentMinute.compareAndSet(seen, minute)) {
            requestsThisMinute.clear();
        }
        return requestsThisMinute
                        .computeIfAbsent(address, ignored -> new AtomicInteger())
                        .incrementAndGet()
                <= config.perAddressPerMinute();
    }

    private void tooLarge(RoutingContext rc) {
        rc.response().putHeader("connection", "close");
        page(rc, 413).end(pageBody("Request too large", "The form sent was too large."));
    }

    /** The gateway's own page answers carry the same protections as accounts-service's pages. */
    private static io.vertx.core.http.HttpServerResponse page(RoutingContext rc, int status) {
        return rc.response()
                .setStatusCode(status)
                .putHeader("content-type", "text/html;charset=UTF-8")
                .putHeader("Content-Security-Policy", "default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "no-store");
    }

    private static String pageBody(String title, String message) {
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title + "</title></head>"
                + "<body><main><h1>" + title + "</h1><p>" + message + "</p></main></body></html>";
    }
}
