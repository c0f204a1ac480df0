package dev.herald.posts.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.ids.IdPrefix;
import dev.herald.posts.service.PostAnalyticsService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code GET /posts/{id}/analytics}: how the post performs on each account. */
@Cancellable(false)
@Path("/posts/{id}/analytics")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class PostAnalyticsResource {
    private final PostAnalyticsService analytics;
    private final Caller caller;

    public PostAnalyticsResource(PostAnalyticsService analytics, Caller caller) {
        this.analytics = analytics;
        this.caller = caller;
    }

    @GET
    public Uni<Response> get(@PathParam("id") String id) {
        if (!IdPrefix.POST.matches(id)) {
            // Not an id Herald ever gave out: no such post, as for any other unknown id.
            throw ApiException.notFound("post");
        }
        return analytics
                .read(caller.workspaceId(), caller.mode(), id)
                .map(read -> read.response(DataEnvelope.of(read.data())));
    }
}
