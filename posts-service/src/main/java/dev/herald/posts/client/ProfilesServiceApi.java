package dev.herald.posts.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** profiles-service's holds, as posts-service puts them (pending posts block a profile's deletion). */
@RegisterRestClient(configKey = "profiles-service")
@Path("/internal/profiles/{profileId}/holds/pending_posts/{postId}")
@Produces(MediaType.APPLICATION_JSON)
public interface ProfilesServiceApi {
    @PUT
    Uni<Response> hold(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("postId") String postId);

    @DELETE
    Uni<Response> release(
            @HeaderParam("authorization") String bearer,
            @PathParam("profileId") String profileId,
            @PathParam("postId") String postId);
}
