package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** YouTube Data API v3's comment resources, as {@link YouTubeComments} calls them with the channel's token. */
@RegisterRestClient(configKey = "youtube-comments")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/youtube/v3")
@Produces(MediaType.APPLICATION_JSON)
public interface YouTubeCommentsApi {

    /** A video's comment threads (top-level comment and some replies), newest first. */
    @GET
    @Path("/commentThreads")
    Uni<Response> threads(
            @HeaderParam("Authorization") String bearer,
            @QueryParam("part") String part,
            @QueryParam("videoId") String videoId,
            @QueryParam("maxResults") int maxResults,
            @QueryParam("order") String order,
            @QueryParam("textFormat") String textFormat);

    /**
     * {@code commentThreads.insert}: a top-level comment on a video ({@code snippet.channelId}, {@code snippet.videoId},
     * {@code snippet.topLevelComment.snippet.textOriginal}); the commentThread resource.
     */
    @POST
    @Path("/commentThreads")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> thread(@HeaderParam("Authorization") String bearer, @QueryParam("part") String part, String body);

    /** A reply ({@code snippet.parentId}, {@code snippet.textOriginal}); the comment resource. */
    @POST
    @Path("/comments")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> reply(@HeaderParam("Authorization") String bearer, @QueryParam("part") String part, String body);
}
