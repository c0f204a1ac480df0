package dev.herald.delivery.provider.linkedin;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.Encoded;
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
 * LinkedIn's versioned REST API as {@link LinkedInPublisher} calls it: the Posts API ({@code /rest/posts}), and the
 * Images and Videos APIs' JSON calls around an upload (the bytes go to the upload URLs they answer, through
 * {@code StreamingHttp}). Every call carries {@code LinkedIn-Version} and {@code X-Restli-Protocol-Version: 2.0.0}.
 */
@RegisterRestClient(configKey = "linkedin-api")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/rest")
@Produces(MediaType.APPLICATION_JSON)
public interface LinkedInApi {
    String PROTOCOL_VERSION = "2.0.0";

    /** Creates a post; {@code 201} with the post's URN in {@code x-restli-id}. */
    @POST
    @Path("/posts")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> createPost(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            String body);

    /**
     * The author's posts, newest first ({@code q=author}). Rest.li 2.0 wants the URN percent-encoded in the query,
     * so the caller encodes it and the client sends it as it is.
     */
    @GET
    @Path("/posts")
    Uni<Response> postsByAuthor(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @QueryParam("q") String finder,
            @Encoded @QueryParam("author") String encodedAuthor,
            @QueryParam("count") int count,
            @QueryParam("sortBy") String sortBy);

    /**
     * {@code POST /rest/images?action=initializeUpload} or {@code /rest/videos?action=initializeUpload} /
     * {@code finalizeUpload}: {@code media} is {@code images} or {@code videos}, {@code action} the Rest.li action.
     */
    @POST
    @Path("/{media}")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> mediaAction(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @PathParam("media") String media,
            @QueryParam("action") String action,
            String body);

    /** One video ({@code status} among its fields); the URN percent-encoded by the caller, as Rest.li 2.0 wants it. */
    @GET
    @Path("/videos/{urn}")
    Uni<Response> video(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @Encoded @PathParam("urn") String encodedUrn);
}
