package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Encoded;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** LinkedIn's social actions summary of a post, as {@link LinkedInAnalytics} reads it. */
@RegisterRestClient(configKey = "linkedin-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/rest/socialActions")
@Produces(MediaType.APPLICATION_JSON)
public interface LinkedInSocialActionsApi {

    /** {@code {"likesSummary": {"totalLikes", ...}, "commentsSummary": {"aggregatedTotalComments", ...}, "target"}}. */
    @GET
    @Path("/{urn}")
    Uni<Response> summary(
            @HeaderParam("Authorization") String bearer,
            @HeaderParam("LinkedIn-Version") String version,
            @HeaderParam("X-Restli-Protocol-Version") String protocol,
            @Encoded @PathParam("urn") String encodedUrn);
}
