package dev.herald.posts.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** accounts-service's account lookup, as posts-service calls it. Answers are read by {@link AccountsClient}. */
@RegisterRestClient(configKey = "accounts-service")
@Path("/internal/accounts/lookup")
@Produces(MediaType.APPLICATION_JSON)
public interface AccountsServiceApi {
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> lookup(@HeaderParam("authorization") String bearer, String body);
}
