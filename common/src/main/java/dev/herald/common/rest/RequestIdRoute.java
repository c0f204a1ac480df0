package dev.herald.common.rest;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Gives every request an id before any other handler runs, so even the framework's own answers (404 for
 * an unknown route, 413 for a huge body) carry {@code x-request-id}. A caller-supplied id (the gateway's)
 * is kept so one id follows the request through every service.
 */
@ApplicationScoped
public class RequestIdRoute {
    void register(@Observes Filters filters) {
        filters.register(rc -> {
            String id = RequestIds.adoptOrCreate(rc.request().getHeader(RequestIds.HEADER));
            rc.request().headers().set(RequestIds.HEADER, id);
            rc.response().headers().set(RequestIds.HEADER, id);
            rc.next();
        }, 1000);
    }
}
