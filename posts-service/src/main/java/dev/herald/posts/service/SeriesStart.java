package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.PostSeries;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.repository.SeriesStatements;
import java.time.Instant;

/**
 * A post's place in a series at acceptance: a request's post whose draft repeats starts one (written by the statement
 * that commits it), a copy joins its own; and the body each copy is accepted from.
 */
final class SeriesStart {
    private SeriesStart() {}

    /** {@code accepted} in its series: the copy of {@code seriesId} (when not null), or the first of a new one. */
    static AcceptedPost join(AcceptedPost accepted, JsonNode body, PostDraft draft, String seriesId) {
        PostEntity post = accepted.post();
        if (seriesId != null) {
            post.seriesId = seriesId;
            return accepted;
        }
        if (draft.repeat() == null) {
            return accepted;
        }
        Recurrence recurrence = Recurrence.of(draft.repeat(), post.dueAt);
        boolean more = recurrence.includes(1);
        return accepted.starting(new SeriesStatements.NewSeries(
                ResourceIds.newId(IdPrefix.POST_SERIES),
                copied(body),
                draft.repeat(),
                post.dueAt,
                more ? recurrence.at(1) : null,
                more ? recurrence.createAt(1) : null,
                more ? PostSeries.ACTIVE : PostSeries.COMPLETED));
    }

    /** The request's body as each copy takes it: without its own time and without {@code repeat}. */
    static String copied(JsonNode body) {
        ObjectNode copy = body.deepCopy();
        copy.remove("scheduled_at");
        copy.remove("repeat");
        return copy.toString();
    }

    /** The body of the copy due at {@code at}: the stored one, scheduled then (the same text for every retry). */
    static ObjectNode copyAt(ObjectNode stored, Instant at) {
        ObjectNode copy = stored.deepCopy();
        copy.put("scheduled_at", at.toString()); // ISO 8601 in UTC, an RFC 3339 timestamp
        return copy;
    }
}
