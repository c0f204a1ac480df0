package dev.herald.posts.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.Post;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Records post events in the outbox, inside the transaction that made the change; keyed by post id. */
@ApplicationScoped
public class PostEventOutbox {
    private final OutboxWriter writer;
    private final Clock clock;

    public PostEventOutbox(ObjectMapper mapper, Clock clock) {
        this.writer = new OutboxWriter(mapper);
        this.clock = clock;
    }

    /**
     * A post handed to delivery: the post as it now is, what to deliver where, and the trace of the request that
     * accepted it (or null).
     */
    public record Handover(
            String workspaceId, Post post, List<PostAcceptedEvent.Delivery> deliveries, String traceParent) {}

    /** The posts are handed to delivery: one {@code post.accepted} each, written with one statement. */
    public Uni<Void> accepted(List<Handover> handovers) {
        List<OutboxWriter.Entry> entries = new ArrayList<>(handovers.size());
        for (Handover handover : handovers) {
            entries.add(acceptedEntry(handover));
        }
        return Panache.getSession().flatMap(session -> writer.appendAll(session, entries));
    }

    /** The outbox row of {@code post.accepted}, for a statement that writes it itself ({@link OutboxWriter#bind}). */
    public OutboxWriter.Entry acceptedEntry(Handover handover) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        PostAcceptedEvent event = new PostAcceptedEvent(
                eventId,
                PostAcceptedEvent.TYPE,
                Timestamps.now(clock),
                handover.workspaceId(),
                handover.post().mode(),
                handover.post(),
                handover.deliveries());
        return new OutboxWriter.Entry(
                eventId, Topics.POST_ACCEPTED, handover.post().id(), event, handover.traceParent());
    }

    /** The post reached a final status (published, partially failed, failed or canceled) in the current request. */
    public Uni<Void> finalized(String workspaceId, Mode mode, Post post) {
        return finalized(workspaceId, mode, post, TraceParents.current());
    }

    /** The same, in the trace {@code traceParent} names (a delivery outcome's). */
    public Uni<Void> finalized(String workspaceId, Mode mode, Post post, String traceParent) {
        OutboxWriter.Entry entry = finalizedEntry(workspaceId, mode, post, traceParent);
        return Panache.getSession().flatMap(session -> writer.appendAll(session, List.of(entry)));
    }

    /** The outbox row of {@code post.finalized}, for a statement that writes it itself ({@link OutboxWriter#bind}). */
    public OutboxWriter.Entry finalizedEntry(String workspaceId, Mode mode, Post post, String traceParent) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        PostFinalizedEvent event = new PostFinalizedEvent(
                eventId, PostFinalizedEvent.typeFor(post.status()), Timestamps.now(clock), workspaceId, mode, post);
        return new OutboxWriter.Entry(eventId, Topics.POST_FINALIZED, post.id(), event, traceParent);
    }
}
