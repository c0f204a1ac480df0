package dev.herald.gateway.proxy;

import dev.herald.gateway.routing.ApiRoute;
import dev.herald.gateway.service.Admission;
import dev.herald.gateway.service.Credential;
import io.vertx.ext.web.RoutingContext;

/**
 * What {@link ApiAdmission} found out about a request it let through, kept in the request's context for the steps
 * after it ({@link ApiForwarding}, {@link LogsRoute}): its route, its caller and the admission's verdict (which
 * a refund needs).
 */
public record AdmittedRequest(ApiRoute route, Credential key, Admission verdict) {
    private static final String CONTEXT_KEY = "herald.admitted";

    void attachTo(RoutingContext rc) {
        rc.put(CONTEXT_KEY, this);
    }

    /** The request's admission, or null if it was not admitted. */
    static AdmittedRequest of(RoutingContext rc) {
        return rc.get(CONTEXT_KEY);
    }
}
