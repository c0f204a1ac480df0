package dev.herald.common.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * posts-service's internal API: {@code POST /internal/accounts/{id}/fences} fences the account and answers {@code
 * {"data": {"fence_id", "account_id", "pending_posts", "expires_at"}}}; {@code DELETE .../fences/{fenceId}} lifts the
 * fence (204). Answers are read by {@link PostsClient}; the caller's {@code quarkus.rest-client.posts-service.*}
 * settings (url, timeouts) configure it.
 */
@RegisterRestClient(configKey = "posts-service")
@Path("/internal/accounts/{accountId}/fences")
@Produces(MediaType.APPLICATION_JSON)
public interface PostsServiceApi {
    @POST
    Uni<Response> fence(@HeaderParam("authorization") String bearer, @PathParam("accountId") String accountId);

    @DELETE
    @Path("/{fenceId}")
    Uni<Response> lift(
            @HeaderParam("authorization") String bearer,
            @PathParam("accountId") String accountId,
            @PathParam("fenceId") String fenceId);
}
