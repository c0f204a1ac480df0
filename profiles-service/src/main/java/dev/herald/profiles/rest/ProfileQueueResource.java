package dev.herald.profiles.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.DeletedResource;
import dev.herald.common.wire.PostQueue;
import dev.herald.profiles.service.ProfileQueueService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /profiles/{id}/queue}: a profile's posting queue, set whole ({@code PUT}), read and deleted. posts-service
 * reads it through {@link InternalProfileQueueResource}.
 */
@Cancellable(false)
@Path("/profiles/{id}/queue")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ProfileQueueResource {
    private final ProfileQueueService queues;
    private final Caller caller;

    public ProfileQueueResource(ProfileQueueService queues, Caller caller) {
        this.queues = queues;
        this.caller = caller;
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<PostQueue>> put(@PathParam("id") String id, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("timezone", "slots"));
        FieldValue<String> timezone = body.string("timezone")
                .required()
                .length(1, QueueRequestReader.MAX_TIMEZONE_LENGTH)
                .read();
        String zone = QueueRequestReader.timezone(timezone.orNull(), body);
        List<PostQueue.Slot> slots = QueueRequestReader.slots(json.get("slots"), body);
        body.validate();
        return queues.put(caller.workspaceId(), caller.mode(), id, zone, slots).map(DataEnvelope::of);
    }

    @GET
    public Uni<DataEnvelope<PostQueue>> get(@PathParam("id") String id) {
        return queues.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    @DELETE
    public Uni<DataEnvelope<DeletedResource>> delete(@PathParam("id") String id) {
        return queues.delete(caller.workspaceId(), caller.mode(), id)
                .replaceWith(DataEnvelope.of(DeletedResource.of(id, "queue")));
    }
}
