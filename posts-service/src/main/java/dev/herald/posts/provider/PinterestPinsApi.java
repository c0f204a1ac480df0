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

/** Pinterest API v5's pin analytics, as {@link PinterestAnalytics} reads them with the account's token. */
@RegisterRestClient(configKey = "pinterest-analytics")
@RegisterProvider(PlatformAnswerFilter.class)
@Path("/v5/pins")
@Produces(MediaType.APPLICATION_JSON)
public interface PinterestPinsApi {

    /** {@code {"all": {"daily_metrics": [...], "summary_metrics": {"IMPRESSION", "SAVE", ...}}}} for the date range. */
    @GET
    @Path("/{pinId}/analytics")
    Uni<Response> analytics(
            @HeaderParam("Authorization") String bearer,
            @PathParam("pinId") String pinId,
            @QueryParam("start_date") String startDate,
            @QueryParam("end_date") String endDate,
            @QueryParam("metric_types") String metricTypes);
}
