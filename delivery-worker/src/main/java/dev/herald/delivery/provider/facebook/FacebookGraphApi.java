package dev.herald.delivery.provider.facebook;

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
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The Pages API of Meta's Graph API, as {@link FacebookPublisher} calls it, with the Page's own access token. The
 * base URL carries the Graph version ({@code https://graph.facebook.com/v24.0}). Photos and videos are fetched by
 * Facebook from their URL; Herald moves no media bytes for Facebook.
 */
@RegisterRestClient(configKey = "facebook-graph")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface FacebookGraphApi {

    /** A text post on the Page's feed, with a link preview when {@code link} is set; {@code {"id": "<page id>_<post id>"}}. */
    @POST
    @Path("/{pageId}/feed")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> feed(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @FormParam("message") String message,
            @FormParam("link") String link);

    /** A photo post from an image URL; {@code {"id": "<photo id>", "post_id": "<page id>_<post id>"}}. */
    @POST
    @Path("/{pageId}/photos")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> photo(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @FormParam("url") String url,
            @FormParam("message") String message);

    /** A video post from a video URL (processed by Facebook after the answer); {@code {"id": "<video id>"}}. */
    @POST
    @Path("/{pageId}/videos")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> video(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @FormParam("file_url") String fileUrl,
            @FormParam("description") String description);

    /** The Page's latest posts, newest first ({@code fields=id,message,created_time}). */
    @GET
    @Path("/{pageId}/feed")
    Uni<Response> posts(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @QueryParam("fields") String fields,
            @QueryParam("limit") int limit);

    /** The Page's latest videos ({@code fields=id,description,created_time}). */
    @GET
    @Path("/{pageId}/videos")
    Uni<Response> videos(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @QueryParam("fields") String fields,
            @QueryParam("limit") int limit);

    /**
     * A photo uploaded unpublished ({@code published=false}), to be attached to a post or a story;
     * {@code {"id": "<photo id>"}}.
     */
    @POST
    @Path("/{pageId}/photos")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> unpublishedPhoto(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @FormParam("url") String url,
            @FormParam("published") boolean published);

    /**
     * A post on the Page's feed from a form of any fields: a multi-photo post's {@code message} and
     * {@code attached_media[i]={"media_fbid":"<photo id>"}}; {@code {"id": "<page id>_<post id>"}}.
     */
    @POST
    @Path("/{pageId}/feed")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> feedPost(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            MultivaluedMap<String, String> form);

    /**
     * A phase of a Reel's or a video story's upload session ({@code edge} {@code video_reels} or
     * {@code video_stories}): {@code upload_phase=start} answers {@code {"video_id", "upload_url"}};
     * {@code upload_phase=finish} (with {@code video_id}, and for a Reel {@code video_state=PUBLISHED} and
     * {@code description}) publishes it, answering {@code {"success": true}} (a story also its {@code post_id}).
     */
    @POST
    @Path("/{pageId}/{edge}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> videoSession(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @PathParam("edge") String edge,
            MultivaluedMap<String, String> form);

    /** A photo story from an unpublished photo; {@code {"success": true, "post_id": "<story post id>"}}. */
    @POST
    @Path("/{pageId}/photo_stories")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Response> photoStory(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @FormParam("photo_id") String photoId);

    /**
     * The Page's Reels ({@code edge} {@code video_reels}: {@code id}, {@code description}) or stories
     * ({@code stories}: {@code post_id}, {@code media_id}, {@code status}), newest first.
     */
    @GET
    @Path("/{pageId}/{edge}")
    Uni<Response> listing(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pageId") String pageId,
            @PathParam("edge") String edge,
            @QueryParam("fields") String fields,
            @QueryParam("limit") int limit);
}
