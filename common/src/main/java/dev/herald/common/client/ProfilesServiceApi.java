package dev.herald.common.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * profiles-service's profile reads, posting queues ({@code /internal/profiles/{id}/queue}) and deletion holds
 * ({@code /internal/profiles/{id}/holds/{kind}/{holder_id}}).
 * Answers are read by {@link ProfilesClient}; the caller's {@code quarkus.rest-client.profiles-service.*} settings
 * configure it.
 */
@RegisterRestClient(configKey = "profiles-service")
@Produces(MediaType.APPLICATION_JSON)
public interface ProfilesServiceApi {
    @GET
    @Path("/profiles/{profileId}")
    Uni<Response> get(@HeaderParam("authorization") String bearer, @PathParam("profileId") String profileId);

    @GET
    @Path("/internal/profiles/{profileId}/queue")
    Uni<Response> queue(@HeaderParam("authorization") String bearer, @PathParam("profileId") String profileId);

    @PUT
    @Path("/internal/profiles/{profileId}/holds/{kind}/{holderId}")
    Uni<Response> hold(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("kind") String kind,
            @PathParam("holderId") String holderId);

    @DELETE
    @Path("/internal/profiles/{profileId}/holds/{kind}/{holderId}")
    Uni<Response> release(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("kind") String kind,
            @PathParam("holderId") String holderId);
}
