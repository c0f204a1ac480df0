package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** TikTok API v2's Query Videos (Display API), as {@link TikTokAnalytics} calls it with the creator's token. */
@RegisterRestClient(configKey = "tiktok-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/v2/video")
@Produces(MediaType.APPLICATION_JSON)
public interface TikTokVideosApi {

    /**
     * {@code POST /v2/video/query/?fields=...} with {@code {"filters": {"video_ids": [...]}}} (at most 20 ids, the
     * creator's own videos): {@code {"data": {"videos": [...], "cursor", "has_more"}, "error": {"code": "ok", ...}}}.
     */
    @POST
    @Path("/query/")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> query(
            @HeaderParam("Authorization") String bearer, @QueryParam("fields") String fields, JsonNode filters);
}
