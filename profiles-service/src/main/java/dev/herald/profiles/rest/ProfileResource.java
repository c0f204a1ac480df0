package dev.herald.profiles.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.validation.QueryParameters;
import dev.herald.common.wire.DeletedResource;
import dev.herald.common.wire.Profile;
import dev.herald.profiles.service.ProfileChanges;
import dev.herald.profiles.service.ProfileService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /profiles}: a customer's group of accounts, posts and media within one workspace and mode. */
@Cancellable(false)
@Path("/profiles")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ProfileResource {
    static final int MAX_NAME_LENGTH = 100;
    static final int MAX_EXTERNAL_ID_LENGTH = 200;
    static final int MAX_FILTER_LENGTH = 200;

    private final ProfileService profiles;
    private final Caller caller;

    public ProfileResource(ProfileService profiles, Caller caller) {
        this.profiles = profiles;
        this.caller = caller;
    }

    @GET
    @Paginated
    public Uni<ListEnvelope<Profile>> list(
            @QueryParam("q") String q,
            @QueryParam("external_id") String externalId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        String nameContains = QueryParameters.boundedText("q", q, MAX_FILTER_LENGTH);
        String externalIdFilter = QueryParameters.boundedText("external_id", externalId, MAX_FILTER_LENGTH);
        return profiles.list(caller.workspaceId(), caller.mode(), nameContains, externalIdFilter, limit, cursor);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("name", "external_id"));
        FieldValue<String> name = body.string("name")
                .required()
                .trimmed()
                .length(1, MAX_NAME_LENGTH)
                .read();
        FieldValue<String> externalId = body.string("external_id")
                .nullable()
                .length(1, MAX_EXTERNAL_ID_LENGTH)
                .read();
        body.validate();
        return profiles.create(caller.workspaceId(), caller.mode(), name.orNull(), externalId.orNull())
                .map(profile -> Response.status(Response.Status.CREATED)
                        .entity(DataEnvelope.of(profile))
                        .build());
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<Profile>> get(@PathParam("id") String id) {
        return profiles.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<Profile>> update(@PathParam("id") String id, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("name", "external_id"));
        FieldValue<String> name =
                body.string("name").trimmed().length(1, MAX_NAME_LENGTH).read();
        FieldValue<String> externalId = body.string("external_id")
                .nullable()
                .length(1, MAX_EXTERNAL_ID_LENGTH)
                .read();
        body.validate();
        return profiles.update(caller.workspaceId(), caller.mode(), id, new ProfileChanges(name, externalId))
                .map(DataEnvelope::of);
    }

    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<DeletedResource>> delete(@PathParam("id") String id) {
        return profiles.delete(caller.workspaceId(), caller.mode(), id)
                .map(profile -> DataEnvelope.of(DeletedResource.of(profile.id(), "profile")));
    }
}
