package dev.herald.profiles.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.PostQueue;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the fields of {@code PUT /profiles/{id}/queue} that {@link JsonBody} has no rule for: the time zone as an IANA
 * region, and the slots with their field paths ({@code slots[3].time}). Problems go to the body, so one 422 names
 * them all.
 */
final class QueueRequestReader {
    static final int MAX_TIMEZONE_LENGTH = 64;
    static final Pattern TIME = Pattern.compile("^([01][0-9]|2[0-3]):[0-5][0-9]$");
    private static final Set<String> SLOT_FIELDS = Set.of("day", "time");

    private QueueRequestReader() {}

    /**
     * The zone when it is a region of the IANA time zone database ({@code Europe/Berlin}, also {@code UTC}); null
     * otherwise. An offset ({@code +02:00}, {@code UTC+02:00}) is refused: it never changes with daylight saving, so a
     * queue in one would drift by an hour against its audience twice a year.
     */
    static String timezone(String zone, JsonBody body) {
        if (zone == null) {
            return null;
        }
        if (!ZoneId.getAvailableZoneIds().contains(zone)) {
            body.reject(
                    "timezone",
                    "invalid_value",
                    "timezone must be an IANA time zone name such as Europe/Berlin or America/New_York"
                            + " (not an offset).");
            return null;
        }
        return zone;
    }

    /** The slots as given, each checked; empty when they could not be read. */
    static List<PostQueue.Slot> slots(JsonNode value, JsonBody body) {
        if (value == null || value.isNull()) {
            body.reject("slots", "required", "slots is required: the weekly times to post at.");
            return List.of();
        }
        if (!value.isArray()) {
            body.reject("slots", "invalid_type", "slots must be an array of {day, time}.");
            return List.of();
        }
        if (value.isEmpty()) {
            body.reject("slots", "too_short", "slots must hold at least one slot; delete the queue to have none.");
            return List.of();
        }
        if (value.size() > PostQueue.MAX_SLOTS) {
            body.reject("slots", "too_long", "slots may hold at most " + PostQueue.MAX_SLOTS + " slots.");
            return List.of();
        }
        List<PostQueue.Slot> slots = new ArrayList<>();
        Set<PostQueue.Slot> seen = new HashSet<>();
        for (int i = 0; i < value.size(); i++) {
            String field = "slots[" + i + "]";
            JsonNode element = value.get(i);
            if (!element.isObject()) {
                body.reject(field, "invalid_type", field + " must be an object with day and time.");
                continue;
            }
            for (Iterator<String> names = element.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!SLOT_FIELDS.contains(name)) {
                    body.reject(field + "." + name, "unknown_field", name + " is not a field of a slot.");
                }
            }
            String day = day(element.get("day"), field + ".day", body);
            String time = time(element.get("time"), field + ".time", body);
            if (day == null || time == null) {
                continue;
            }
            PostQueue.Slot slot = new PostQueue.Slot(day, time);
            if (!seen.add(slot)) {
                body.reject(field, "invalid_value", day + " " + time + " is listed more than once.");
                continue;
            }
            slots.add(slot);
        }
        return slots;
    }

    private static String day(JsonNode value, String field, JsonBody body) {
        if (value == null || value.isNull()) {
            body.reject(field, "required", field + " is required: monday to sunday.");
            return null;
        }
        if (!value.isTextual()) {
            body.reject(field, "invalid_type", field + " must be a string.");
            return null;
        }
        if (!PostQueue.DAYS.contains(value.textValue())) {
            body.reject(field, "invalid_value", field + " must be one of " + String.join(", ", PostQueue.DAYS) + ".");
            return null;
        }
        return value.textValue();
    }

    private static String time(JsonNode value, String field, JsonBody body) {
        if (value == null || value.isNull()) {
            body.reject(field, "required", field + " is required: a local time HH:MM.");
            return null;
        }
        if (!value.isTextual()) {
            body.reject(field, "invalid_type", field + " must be a string.");
            return null;
        }
        if (!TIME.matcher(value.textValue()).matches()) {
            body.reject(field, "invalid_format", field + " must be a 24-hour local time HH:MM, 00:00 to 23:59.");
            return null;
        }
        return value.textValue();
    }
}
