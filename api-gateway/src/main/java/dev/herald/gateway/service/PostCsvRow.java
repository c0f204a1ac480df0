package dev.herald.gateway.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.PostMedia;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One data row of an imported CSV as the {@code POST /posts} body it becomes. {@code number} counts data rows from 1
 * (the header is not counted); {@code scheduledAt} is null for "now", an RFC 3339 time or {@code next_slot} as written
 * (the API checks it); {@code problems} are what the row's cells themselves got wrong, before any API call (a row
 * with problems is never sent).
 */
public record PostCsvRow(
        int number,
        String text,
        List<String> accountIds,
        String scheduledAt,
        PostMedia media,
        String firstComment,
        List<FieldError> problems) {
    public static final String NEXT_SLOT = "next_slot";
    /** The field of a problem with the row as a whole. */
    public static final String ROW = "row";

    public PostCsvRow {
        accountIds = List.copyOf(accountIds);
        problems = List.copyOf(problems);
    }

    /** The body of {@code POST /posts} (and {@code /posts/validate}) for this row: only the fields it gives. */
    public Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("text", text);
        body.put("account_ids", accountIds);
        if (scheduledAt != null) {
            body.put("scheduled_at", scheduledAt);
        }
        if (media != null) {
            body.put("media", media);
        }
        if (firstComment != null) {
            body.put("first_comment", Map.of("text", firstComment));
        }
        return body;
    }

    /** The row's Idempotency-Key: the same upload's same row is the same post however often it is submitted. */
    public String idempotencyKey(String fingerprint) {
        return "dashboard-csv-" + fingerprint + "-" + number;
    }
}
