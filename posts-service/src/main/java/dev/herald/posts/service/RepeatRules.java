package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostSeries;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rules of a post's {@code repeat} ({@link PostSeries.Repeat}): its shape as the request gives it ({@link #read}),
 * and the rules that need the clock and the first post's time ({@link #check}). {@code repeat} cannot yet be combined
 * with {@code "scheduled_at": "next_slot"}: a series keeps one period from its first post, a queue picks free slots.
 */
public final class RepeatRules {
    static final int MIN_COUNT = 2;
    static final int MAX_COUNT = 366;
    static final int MAX_YEARS_AHEAD = 2;
    /** The zone a series without {@code timezone} keeps its time in. */
    static final String DEFAULT_TIMEZONE = "UTC";

    private static final Set<String> FIELDS = Set.of("every", "until", "count", "timezone");
    private static final String NEXT_SLOT = "next_slot";

    private RepeatRules() {}

    /**
     * The {@code repeat} of a {@code POST /posts} body ({@code value}; {@code scheduledAt} is the body's
     * {@code scheduled_at}), its timezone defaulted; null when none was given or it has problems, each added to
     * {@code errors} under {@code repeat} or {@code repeat.<field>}.
     */
    public static PostSeries.Repeat read(JsonNode value, JsonNode scheduledAt, List<FieldError> errors) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            errors.add(new FieldError(
                    "repeat", "invalid_type", "repeat must be an object: { every, until or count, timezone }."));
            return null;
        }
        List<FieldError> found = new ArrayList<>();
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                found.add(new FieldError(
                        "repeat." + name, "unknown_field", "repeat." + name + " is not a field of repeat."));
            }
        }
        if (scheduledAt != null && scheduledAt.isTextual() && NEXT_SLOT.equals(scheduledAt.textValue())) {
            found.add(new FieldError(
                    "repeat",
                    "not_supported",
                    "repeat cannot be combined with \"scheduled_at\": \"next_slot\" yet; give the first post's time"
                            + " in scheduled_at, or omit it to publish the first post now."));
        }
        String every = every(value.get("every"), found);
        Instant until = until(value.get("until"), found);
        Integer count = count(value.get("count"), found);
        boolean untilGiven = given(value.get("until"));
        boolean countGiven = given(value.get("count"));
        if (untilGiven && countGiven) {
            found.add(new FieldError(
                    "repeat",
                    "invalid_value",
                    "repeat takes until or count, not both: say when the series ends once."));
        } else if (!untilGiven && !countGiven) {
            found.add(new FieldError(
                    "repeat",
                    "required",
                    "repeat needs until (the latest time of its last post) or count (posts in all, the first"
                            + " included, " + MIN_COUNT + " to " + MAX_COUNT + ")."));
        }
        String timezone = timezone(value.get("timezone"), found);
        errors.addAll(found);
        return found.isEmpty() ? new PostSeries.Repeat(every, until, count, timezone) : null;
    }

    /**
     * What is wrong with a readable {@code repeat} now: {@code until} must come after the first post's time
     * ({@code firstAt}: its scheduled time, or now) and at most {@value #MAX_YEARS_AHEAD} years ahead.
     */
    public static List<FieldError> check(PostSeries.Repeat repeat, Instant firstAt, Instant now) {
        if (repeat == null || repeat.until() == null) {
            return List.of();
        }
        if (!repeat.until().isAfter(firstAt)) {
            return List.of(new FieldError(
                    "repeat.until", "invalid_value", "repeat.until must come after the first post's time."));
        }
        Instant latest = now.atOffset(ZoneOffset.UTC).plusYears(MAX_YEARS_AHEAD).toInstant();
        if (repeat.until().isAfter(latest)) {
            return List.of(new FieldError(
                    "repeat.until",
                    "invalid_value",
                    "repeat.until must be at most " + MAX_YEARS_AHEAD + " years ahead."));
        }
        return List.of();
    }

    private static String every(JsonNode value, List<FieldError> found) {
        if (!given(value)) {
            found.add(new FieldError(
                    "repeat.every", "required", "repeat.every is required: the period between posts, such as P7D."));
            return null;
        }
        if (!value.isTextual()) {
            found.add(new FieldError("repeat.every", "invalid_type", "repeat.every must be a string."));
            return null;
        }
        if (!Recurrence.EVERY.matcher(value.textValue()).matches()) {
            found.add(new FieldError(
                    "repeat.every",
                    "invalid_format",
                    "repeat.every must be an ISO 8601 period of whole days, weeks or months, such as P1D, P7D, P1W,"
                            + " P1M or P1Y."));
            return null;
        }
        if (Recurrence.period(value.textValue()).isEmpty()) {
            found.add(new FieldError(
                    "repeat.every",
                    "invalid_value",
                    "repeat.every must be from P1D to P1Y: at most P" + Recurrence.MAX_DAYS + "D, P"
                            + Recurrence.MAX_WEEKS + "W or P" + Recurrence.MAX_MONTHS + "M."));
            return null;
        }
        return value.textValue();
    }

    private static Instant until(JsonNode value, List<FieldError> found) {
        if (!given(value)) {
            return null;
        }
        if (!value.isTextual()) {
            found.add(new FieldError(
                    "repeat.until", "invalid_type", "repeat.until must be an RFC 3339 timestamp string."));
            return null;
        }
        Optional<Instant> until = Timestamps.parseRfc3339(value.textValue());
        if (until.isEmpty()) {
            found.add(new FieldError(
                    "repeat.until",
                    "invalid_format",
                    "repeat.until must be an RFC 3339 timestamp with a time zone, such as 2027-06-30T23:59:59Z."));
            return null;
        }
        return until.get();
    }

    private static Integer count(JsonNode value, List<FieldError> found) {
        if (!given(value)) {
            return null;
        }
        if (!value.isIntegralNumber()) {
            found.add(new FieldError("repeat.count", "invalid_type", "repeat.count must be an integer."));
            return null;
        }
        if (!value.canConvertToInt() || value.intValue() < MIN_COUNT || value.intValue() > MAX_COUNT) {
            found.add(new FieldError(
                    "repeat.count",
                    "invalid_value",
                    "repeat.count must be from " + MIN_COUNT + " to " + MAX_COUNT + ": the posts in all, the first"
                            + " included."));
            return null;
        }
        return value.intValue();
    }

    private static String timezone(JsonNode value, List<FieldError> found) {
        if (!given(value)) {
            return DEFAULT_TIMEZONE;
        }
        if (!value.isTextual()) {
            found.add(new FieldError("repeat.timezone", "invalid_type", "repeat.timezone must be a string."));
            return null;
        }
        // The IANA names the JDK's time-zone database knows, not offsets such as +02:00: those know no DST.
        if (!ZoneId.getAvailableZoneIds().contains(value.textValue())) {
            found.add(new FieldError(
                    "repeat.timezone",
                    "invalid_value",
                    "repeat.timezone must be an IANA time zone, such as Europe/Berlin or America/New_York."));
            return null;
        }
        return value.textValue();
    }

    private static boolean given(JsonNode value) {
        return value != null && !value.isNull();
    }
}
