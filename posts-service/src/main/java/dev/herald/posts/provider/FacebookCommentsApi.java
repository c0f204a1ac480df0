package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
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

/** The Graph API's {@code /comments} edge, as {@link FacebookComments} calls it with the Page's token. */
@RegisterRestClient(configKey = "facebook-comments")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface FacebookCommentsApi {

    /** Comments on a Page post ({@code filter=stream}: replies too, each with its {@code parent}). */
    @GET
    @Path("/{objectId}/comments")
    Uni<Response> comments(
            @HeaderParam("Authorization") String bearer,
            @PathParam("objectId") String objectId,
            @QueryParam("fields") String fields,
            @QueryParam("filter") String filter,
            @QueryParam("order") String order,
            @QueryParam("limit") int limit);

    /**
     * A comment on the object: on a Page post, a top-level comment; on a comment, a reply to it;
     * {@code {"id": "<comment id>"}}.
     */
    @POST
    @Path("/{objectId}/comments")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> comment(
            @HeaderParam("Authorization") String bearer,
            @PathParam("objectId") String objectId,
            @FormParam("message") String message);
}
