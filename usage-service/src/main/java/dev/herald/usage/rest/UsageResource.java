package dev.herald.usage.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.wire.Usage;
import dev.herald.usage.service.UsageService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code GET /usage}: the plan and meters of the caller's workspace and mode (any scope may read it). */
@Cancellable(false)
@Path("/usage")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {
    private final UsageService usage;
    private final Caller caller;

    public UsageResource(UsageService usage, Caller caller) {
        this.usage = usage;
        this.caller = caller;
    }

    @GET
    public Uni<DataEnvelope<Usage>> get(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return usage.usage(caller.workspaceId(), caller.mode(), ApiRequestsClaim.read(authorization))
                .map(DataEnvelope::of);
    }
}
