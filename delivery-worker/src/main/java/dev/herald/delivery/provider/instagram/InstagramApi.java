package dev.herald.delivery.provider.instagram;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
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

/**
 * The Instagram API with Instagram Login's content publishing ({@code https://graph.instagram.com/v24.0}), as
 * {@link InstagramPublisher} calls it: a media container, its status, then {@code media_publish}.
 */
@RegisterRestClient(configKey = "instagram-graph")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface InstagramApi {

    /**
     * Creates a media container (an image's {@code {"image_url", "caption"}}, a Reel's, a story's, a carousel item's or a
     * carousel's: {@link InstagramPublisher}); {@code {"id": "<container id>"}}.
     */
    @POST
    @Path("/{userId}/media")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> createContainer(
            @HeaderParam("Authorization") String bearer, @PathParam("userId") String userId, String body);

    /** A container's {@code status_code}: IN_PROGRESS, FINISHED, ERROR, EXPIRED or PUBLISHED. */
    @GET
    @Path("/{containerId}")
    Uni<Response> container(
            @HeaderParam("Authorization") String bearer,
            @PathParam("containerId") String containerId,
            @QueryParam("fields") String fields);

    /** Publishes a finished container ({@code {"creation_id"}}); {@code {"id": "<media id>"}}. */
    @POST
    @Path("/{userId}/media_publish")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> publish(@HeaderParam("Authorization") String bearer, @PathParam("userId") String userId, String body);

    /** One media object's fields (the permalink). */
    @GET
    @Path("/{mediaId}")
    Uni<Response> media(
            @HeaderParam("Authorization") String bearer,
            @PathParam("mediaId") String mediaId,
            @QueryParam("fields") String fields);

    /** The account's latest media, newest first. */
    @GET
    @Path("/{userId}/media")
    Uni<Response> recentMedia(
            @HeaderParam("Authorization") String bearer,
            @PathParam("userId") String userId,
            @QueryParam("fields") String fields,
            @QueryParam("limit") int limit);
}
