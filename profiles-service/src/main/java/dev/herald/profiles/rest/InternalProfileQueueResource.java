package dev.herald.profiles.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.wire.PostQueue;
import dev.herald.profiles.service.ProfileQueueService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /internal/profiles/{id}/queue}: posts-service's read of a profile's posting queue, when a post asks for its
 * next slot; the answer of {@code GET /profiles/{id}/queue} ({@code 404} when the profile has none or is not the
 * caller's).
 */
@Cancellable(false)
@Path("/internal/profiles/{id}/queue")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class InternalProfileQueueResource {
    private final ProfileQueueService queues;
    private final Caller caller;

    public InternalProfileQueueResource(ProfileQueueService queues, Caller caller) {
        this.queues = queues;
        this.caller = caller;
    }

    @GET
    public Uni<DataEnvelope<PostQueue>> get(@PathParam("id") String id) {
        return queues.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }
}
