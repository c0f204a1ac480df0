package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.accounts.service.BrandingRequest;
import dev.herald.accounts.service.BrandingService;
import dev.herald.accounts.service.LogoFetcher;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.Branding;
import dev.herald.common.wire.DeletedResource;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /branding}: how the hosted connect page looks for the caller's workspace and mode. {@code GET} and
 * {@code DELETE} are {@code 404 not_found} when none is set, as a profile's queue is.
 */
@Cancellable(false)
@Path("/branding")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class BrandingResource {
    private final BrandingService brandings;
    private final LogoFetcher logos;
    private final Caller caller;

    public BrandingResource(BrandingService brandings, LogoFetcher logos, Caller caller) {
        this.brandings = brandings;
        this.logos = logos;
        this.caller = caller;
    }

    @GET
    public Uni<DataEnvelope<Branding>> get() {
        return brandings.get(caller.workspaceId(), caller.mode()).map(DataEnvelope::of);
    }

    /** Replaces the whole branding; a field left out is not set. The logo is fetched before the answer. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<Branding>> replace(JsonNode json) {
        JsonBody body = JsonBody.of(json, BrandingFields.FIELDS);
        BrandingRequest request = BrandingFields.read(body, logos);
        body.validate();
        return brandings.replace(caller.workspaceId(), caller.mode(), request).map(DataEnvelope::of);
    }

    @DELETE
    public Uni<DataEnvelope<DeletedResource>> delete() {
        return brandings.delete(caller.workspaceId(), caller.mode()).map(DataEnvelope::of);
    }
}
