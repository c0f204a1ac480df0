package dev.herald.accounts.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** profiles-service's profile read, as connect-session creation checks a profile. Read by {@link ConnectProfilesClient}. */
@RegisterRestClient(configKey = "profiles-service")
@Path("/profiles/{profileId}")
@Produces(MediaType.APPLICATION_JSON)
public interface ConnectProfilesApi {
    @GET
    Uni<Response> get(@HeaderParam("authorization") String bearer, @PathParam("profileId") String profileId);
}
