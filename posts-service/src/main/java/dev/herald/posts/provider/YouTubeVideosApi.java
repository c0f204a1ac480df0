package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** YouTube Data API v3's {@code videos.list}, as {@link YouTubeAnalytics} calls it with the channel's token. */
@RegisterRestClient(configKey = "youtube-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/youtube/v3")
@Produces(MediaType.APPLICATION_JSON)
public interface YouTubeVideosApi {

    /** {@code {"items": [{"id", "statistics": {"viewCount", "likeCount", "favoriteCount", "commentCount"}}]}}. */
    @GET
    @Path("/videos")
    Uni<Response> videos(
            @HeaderParam("Authorization") String bearer, @QueryParam("part") String part, @QueryParam("id") String id);
}
