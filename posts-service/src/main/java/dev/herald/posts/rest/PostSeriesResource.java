package dev.herald.posts.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.wire.PostSeries;
import dev.herald.posts.service.PostSeriesService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /post-series/{id}}: a recurring post's series (created by {@code POST /posts} with {@code repeat}). */
@Cancellable(false)
@Path("/post-series")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class PostSeriesResource {
    private final PostSeriesService series;
    private final Caller caller;

    public PostSeriesResource(PostSeriesService series, Caller caller) {
        this.series = series;
        this.caller = caller;
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<PostSeries>> get(@PathParam("id") String id) {
        return series.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** Cancels the series and its queued copy; answers the series. */
    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<PostSeries>> cancel(@PathParam("id") String id) {
        return series.cancel(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }
}
