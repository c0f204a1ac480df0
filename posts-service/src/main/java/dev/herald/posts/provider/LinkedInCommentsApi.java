package dev.herald.posts.provider;

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
 * LinkedIn's versioned Comments API ({@code /rest/socialActions/{urn}/comments}), as {@link LinkedInComments} calls
 * it. The URN in the path is percent-encoded by the caller (Rest.li 2.0) and sent as it is.
 */
@RegisterRestClient(configKey = "linkedin-comments")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/rest/socialActions")
@Produces(MediaType.APPLICATION_JSON)
public interface LinkedInCommentsApi {
    String PROTOCOL_VERSION = "2.0.0";

    /** Comments on a post (or on a comment, given its comment URN). */
    @GET
    @Path("/{urn}/comments")
    Uni<Response> comments(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @Encoded @PathParam("urn") String encodedUrn,
            @QueryParam("count") int count);

    /** A comment on the entity in the path: a reply when it is a comment URN and the body names it as parent. */
    @POST
    @Path("/{urn}/comments")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> create(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @Encoded @PathParam("urn") String encodedUrn,
            String body);
}
