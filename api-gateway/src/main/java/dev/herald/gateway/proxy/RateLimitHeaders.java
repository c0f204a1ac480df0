package dev.herald.gateway.proxy;

import dev.herald.gateway.service.RateLimitStatus;
import dev.herald.gateway.service.RequestAdmission;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The {@code X-RateLimit-*} headers every API answer carries (spec section 8), refusals included. A request without
 * an API credential counts in its address's window for them, which reports and never refuses, so such answers are
 * always served: the admission chain's 400 and 401 answers, and the gateway's public routes (the OpenAPI document,
 * the token endpoint).
 */
@ApplicationScoped
public class RateLimitHeaders {
    private static final Logger LOG = Logger.getLogger(RateLimitHeaders.class);

    private final RequestAdmission admission;

    public RateLimitHeaders(RequestAdmission admission) {
        this.admission = admission;
    }

    public void set(RoutingContext rc, RateLimitStatus status) {
        rc.response()
                .putHeader("X-RateLimit-Limit", Integer.toString(status.limit()))
                .putHeader("X-RateLimit-Remaining", Integer.toString(status.remaining()))
                .putHeader("X-RateLimit-Reset", Long.toString(status.resetEpochSeconds()));
    }

    /** Counts a request without a credential in its address's window and sets the headers from it. */
    public Uni<RateLimitStatus> countAnonymous(RoutingContext rc) {
        return admission
                .countAnonymousRequest(rc.request().remoteAddress().hostAddress())
                .invoke(rate -> set(rc, rate));
    }

    /**
     * For a public route without an API credential: counts the request ({@link #countAnonymous}), then runs
     * {@code then}. If the window cannot be counted (database down), {@code then} runs without the headers.
     */
    public void countAnonymously(RoutingContext rc, Runnable then) {
        countAnonymous(rc).subscribe().with(rate -> then.run(), failure -> {
            LOG.warnf(
                    "request %s: the rate window is unavailable (%s)",
                    rc.request().getHeader("x-request-id"), failure);
            then.run();
        });
    }
}
