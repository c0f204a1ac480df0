package dev.herald.common.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * accounts-service's account lookup and provider access (tokens are refreshed there, where they are stored). Answers are read by {@link AccountsClient};
 * the caller's {@code quarkus.rest-client.accounts-service.*} settings configure it.
 */
@RegisterRestClient(configKey = "accounts-service")
@Path("/internal/accounts")
@Produces(MediaType.APPLICATION_JSON)
public interface AccountsServiceApi {
    @POST
    @Path("/lookup")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> lookup(@HeaderParam("authorization") String bearer, String body);

    @POST
    @Path("/{accountId}/access-token")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> accessToken(
            @HeaderParam("authorization") String bearer, @PathParam("accountId") String accountId, String body);
}
