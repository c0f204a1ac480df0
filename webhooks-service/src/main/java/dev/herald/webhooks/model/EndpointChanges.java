package dev.herald.webhooks.model;

import dev.herald.common.validation.FieldValue;
import java.util.List;

/** A validated {@code PATCH /webhooks/{id}}: each field absent (keep), null (clear, description only) or new. */
public record EndpointChanges(FieldValue<String> description, FieldValue<List<String>> events) {

    public boolean isEmpty() {
        return description.isAbsent() && events.isAbsent();
    }
}
