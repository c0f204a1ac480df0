package dev.herald.posts.provider;

import dev.herald.common.net.PlatformAnswerFilter;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** A Page post's fields through the Graph API, as {@link FacebookAnalytics} reads them with the Page's token. */
@RegisterRestClient(configKey = "facebook-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface FacebookPostApi {

    @GET
    @Path("/{postId}")
    Uni<Response> post(
            @HeaderParam("Authorization") String bearer,
            @PathParam("postId") String postId,
            @QueryParam("fields") String fields);
}
