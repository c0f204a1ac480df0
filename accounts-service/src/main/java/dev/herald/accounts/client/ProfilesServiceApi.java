package dev.herald.accounts.client;

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
 * profiles-service as accounts-service calls it: profile reads and deletion holds. Answers are read by
 * {@link ProfilesClient}.
 */
@RegisterRestClient(configKey = "profiles-service")
@Produces(MediaType.APPLICATION_JSON)
public interface ProfilesServiceApi {
    @GET
    @Path("/profiles/{profileId}")
    Uni<Response> get(@HeaderParam("authorization") String bearer, @PathParam("profileId") String profileId);

    @PUT
    @Path("/internal/profiles/{profileId}/holds/accounts/{accountId}")
    Uni<Response> hold(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("accountId") String accountId);

    @DELETE
    @Path("/internal/profiles/{profileId}/holds/accounts/{accountId}")
    Uni<Response> release(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("accountId") String accountId);
}
