package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Instagram API with Instagram Login's comment endpoints, as {@link InstagramComments} calls them. */
@RegisterRestClient(configKey = "instagram-comments")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface InstagramCommentsApi {

    /** Comments on a media object, newest first. */
    @GET
    @Path("/{mediaId}/comments")
    Uni<Response> comments(
            @HeaderParam("Authorization") String bearer,
            @PathParam("mediaId") String mediaId,
            @QueryParam("fields") String fields,
            @QueryParam("limit") int limit);

    /** A top-level comment on a media object ({@code message} in the query, as documented); {@code {"id": ...}}. */
    @POST
    @Path("/{mediaId}/comments")
    Uni<Response> comment(
            @HeaderParam("Authorization") String bearer,
            @PathParam("mediaId") String mediaId,
            @QueryParam("message") String message);

    /** A reply to a top-level comment ({@code message} in the query, as documented); {@code {"id": ...}}. */
    @POST
    @Path("/{commentId}/replies")
    Uni<Response> reply(
            @HeaderParam("Authorization") String bearer,
            @PathParam("commentId") String commentId,
            @QueryParam("message") String message);
}
