package dev.herald.common.rest;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Gives every request an id before any other handler runs, so even the framework's own answers (404 for
 * an unknown route, 413 for a huge body) carry {@code x-request-id}. A caller-supplied id (the gateway's)
 * is kept so one id follows the request through every service.
 */
@ApplicationScoped
public class RequestIdRoute {
    private final boolean acceptIncoming;

    /** The public edge (the gateway) sets {@code herald.request-ids.accept-incoming=false}: clients do not name our requests. */
    public RequestIdRoute(@ConfigProperty(name = "herald.request-ids.accept-incoming", defaultValue = "true") boolean acceptIncoming) {
        this.acceptIncoming = acceptIncoming;
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            String id = acceptIncoming ? RequestIds.adoptOrCreate(rc.request().getHeader(RequestIds.HEADER)) : RequestIds.newRequestId();
            rc.request().headers().set(RequestIds.HEADER, id);
            rc.response().headers().set(RequestIds.HEADER, id);
            rc.next();
        }, 1000);
    }
}
