package dev.herald.common.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * posts-service's internal API: {@code GET /internal/accounts/{id}/pending-posts} answers {@code {"data":
 * {"account_id", "pending_posts"}}}. Answers are read by {@link PostsClient}; the caller's
 * {@code quarkus.rest-client.posts-service.*} settings (url, timeouts) configure it.
 */
@RegisterRestClient(configKey = "posts-service")
@Path("/internal/accounts/{accountId}/pending-posts")
@Produces(MediaType.APPLICATION_JSON)
public interface PostsServiceApi {
    @GET
    Uni<Response> pendingPosts(@HeaderParam("authorization") String bearer, @PathParam("accountId") String accountId);
}
