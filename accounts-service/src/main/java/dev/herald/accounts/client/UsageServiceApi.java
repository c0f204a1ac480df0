package dev.herald.accounts.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** usage-service's connected-account slots, as accounts-service calls them. Answers are read by {@link UsageClient}. */
@RegisterRestClient(configKey = "usage-service")
@Path("/internal/connected-accounts")
@Produces(MediaType.APPLICATION_JSON)
public interface UsageServiceApi {
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> connect(@HeaderParam("authorization") String bearer, String body);

    @DELETE
    @Path("/{accountId}")
    Uni<Response> disconnect(@HeaderParam("authorization") String bearer, @PathParam("accountId") String accountId);
}
