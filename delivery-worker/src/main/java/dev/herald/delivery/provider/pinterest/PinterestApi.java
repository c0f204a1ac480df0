package dev.herald.delivery.provider.pinterest;

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

/**
 * Pinterest's API v5, as {@link PinterestPublisher} calls it; built for the production or the sandbox host (trial
 * apps), so it is not a configured REST client.
 */
@Path("/v5")
@Produces(MediaType.APPLICATION_JSON)
public interface PinterestApi {

    /** Creates a pin; {@code 201 {"id": ...}}. */
    @POST
    @Path("/pins")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> createPin(@HeaderParam("Authorization") String bearer, String body);

    /**
     * Registers a video upload ({@code {"media_type": "video"}}); {@code 201} with {@code media_id}, {@code upload_url} and
     * the {@code upload_parameters} to send along with the file.
     */
    @POST
    @Path("/media")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> registerMedia(@HeaderParam("Authorization") String bearer, String body);

    /** A registered upload's {@code status}: {@code registered}, {@code processing}, {@code succeeded} or {@code failed}. */
    @GET
    @Path("/media/{mediaId}")
    Uni<Response> media(@HeaderParam("Authorization") String bearer, @PathParam("mediaId") String mediaId);

    /** A board's pins, newest first ({@code {"items": [...], "bookmark": ...}}). */
    @GET
    @Path("/boards/{boardId}/pins")
    Uni<Response> boardPins(
            @HeaderParam("Authorization") String bearer,
            @PathParam("boardId") String boardId,
            @QueryParam("page_size") int pageSize);
}
