package dev.herald.usage.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.wire.Entitlements;
import dev.herald.usage.service.UsageService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code GET /internal/entitlements}: what the gateway enforces (per-minute rate, monthly API requests). */
@Cancellable(false)
@Path("/internal/entitlements")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class EntitlementsResource {
    private final UsageService usage;
    private final Caller caller;

    public EntitlementsResource(UsageService usage, Caller caller) {
        this.usage = usage;
        this.caller = caller;
    }

    @GET
    public Uni<DataEnvelope<Entitlements>> get() {
        return usage.entitlements(caller.workspaceId(), caller.mode()).map(DataEnvelope::of);
    }
}
