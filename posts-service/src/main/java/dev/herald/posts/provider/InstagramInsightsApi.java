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

/** Instagram API with Instagram Login's media insights, as {@link InstagramAnalytics} reads them. */
@RegisterRestClient(configKey = "instagram-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Produces(MediaType.APPLICATION_JSON)
public interface InstagramInsightsApi {

    /** {@code {"data": [{"name", "period": "lifetime", "values": [{"value"}], "title", "description", "id"}]}}. */
    @GET
    @Path("/{mediaId}/insights")
    Uni<Response> insights(
            @HeaderParam("Authorization") String bearer,
            @PathParam("mediaId") String mediaId,
            @QueryParam("metric") String metric);
}
