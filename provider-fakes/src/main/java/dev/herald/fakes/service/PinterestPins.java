package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Pinterest's pins: {@code POST /v5/pins} (an image by URL, a carousel of 2 to 5 image URLs or an uploaded video, on
 * the account's board) and a pin's
 * {@code GET /v5/pins/{id}/analytics}.
 */
final class PinterestPins {
    /** A pin's {@code created_at} as Pinterest writes it ({@code 2020-01-01T20:10:40}), seconds always present. */
    private static final DateTimeFormatter CREATED_AT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    static final int MIN_CAROUSEL_ITEMS = 2;
    static final int MAX_CAROUSEL_ITEMS = 5;
    private static final List<String> PIN_METRICS = List.of("IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK");
    private final PinterestFake fake;

    PinterestPins(PinterestFake fake) {
        this.fake = fake;
    }

    FakeResponse createPin(FakeRequest request, IssuedGrant grant) {
        if (!grant.scopes().contains("pins:write")) {
            return fake.error(403, 29, "You are not permitted to access that resource (pins:write is required).");
        }
        JsonNode pin = fake.jsonBody(request);
        if (pin == null
                || !pin.hasNonNull("board_id")
                || !pin.path("media_source").isObject()) {
            return fake.error(400, 1, "Invalid request body: board_id and media_source are required.");
        }
        if (!PinterestFake.BOARD_ID.equals(pin.get("board_id").asText())) {
            return fake.error(404, 3, "Board not found.");
        }
        JsonNode source = pin.get("media_source");
        boolean video = "video_id".equals(source.path("source_type").asText());
        if (video && !fake.uploaded(source.path("media_id").asText(""))) {
            return fake.error(400, 1, "Invalid request body: media_source.media_id is not a succeeded media upload.");
        }
        if (video && !source.hasNonNull("cover_image_url") && !source.hasNonNull("cover_image_key_frame_time")) {
            return fake.error(
                    400, 1, "Invalid request body: a video pin needs cover_image_url or cover_image_key_frame_time.");
        }
        boolean carousel =
                "multiple_image_urls".equals(source.path("source_type").asText());
        if (carousel) {
            FakeResponse refused = carouselRefusal(source.path("items"));
            if (refused != null) {
                return refused;
            }
        } else if (!video
                && (!"image_url".equals(source.path("source_type").asText())
                        || !source.path("url").asText("").startsWith("http"))) {
            return fake.error(
                    400,
                    1,
                    "Invalid request body: only media_source.source_type image_url with a url, multiple_image_urls or"
                            + " video_id is faked.");
        }
        ObjectNode created = fake.object()
                .put("id", FakeIds.digits(18))
                .put("created_at", OffsetDateTime.now(ZoneOffset.UTC).format(CREATED_AT))
                .put("board_id", PinterestFake.BOARD_ID)
                .put("board_owner", PinterestFake.USERNAME);
        for (String field : List.of("board_section_id", "title", "description", "link", "alt_text")) {
            if (pin.hasNonNull(field)) {
                created.set(field, pin.get(field));
            } else {
                created.putNull(field);
            }
        }
        if (video) {
            created.putObject("media")
                    .put("media_type", "video")
                    .put("media_id", source.get("media_id").asText());
        } else if (carousel) {
            ArrayNode items = created.putObject("media")
                    .put("media_type", "multiple_images")
                    .putArray("items");
            for (JsonNode item : source.get("items")) {
                ObjectNode shown = items.addObject().put("item_type", "image");
                for (String field : List.of("url", "title", "description", "link")) {
                    if (item.hasNonNull(field)) {
                        shown.set(field, item.get(field));
                    }
                }
            }
        } else {
            created.putObject("media")
                    .put("media_type", "image")
                    .put("source_url", source.get("url").asText());
        }
        created.put("is_owner", true);
        fake.publish(created);
        return fake.json(201, created);
    }

    /**
     * A carousel pin's items (https://developers.pinterest.com/docs/api/v5/pins-create, {@code multiple_image_urls}):
     * 2 to 5, each with an http(s) {@code url} and, optionally, {@code title}, {@code description} and {@code link};
     * null when they are so.
     */
    private FakeResponse carouselRefusal(JsonNode items) {
        if (!items.isArray() || items.size() < MIN_CAROUSEL_ITEMS || items.size() > MAX_CAROUSEL_ITEMS) {
            return fake.error(
                    400,
                    1,
                    "Invalid request body: a carousel pin takes " + MIN_CAROUSEL_ITEMS + " to " + MAX_CAROUSEL_ITEMS
                            + " media_source.items, " + (items.isArray() ? items.size() : 0) + " given.");
        }
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).path("url").asText("").startsWith("http")) {
                return fake.error(400, 1, "Invalid request body: media_source.items[" + i + "].url is required.");
            }
        }
        return null;
    }

    /**
     * A pin's analytics (https://developers.pinterest.com/docs/api/v5/pins-analytics): {@code start_date},
     * {@code end_date} (within the last 90 days, not after today, UTC) and {@code metric_types} are required; each day
     * of the range is in {@code daily_metrics} ({@code BEFORE_PIN_CREATED} before the pin's day, else {@code READY}
     * with what the day added), {@code summary_metrics} their sum. IMPRESSION and SAVE are {@link PublishedMetrics}'s
     * views and saves, PIN_CLICK its likes and OUTBOUND_CLICK its comments.
     */
    FakeResponse pinAnalytics(FakeRequest request, IssuedGrant grant, String pinId) {
        if (!grant.scopes().contains("pins:read")) {
            return fake.error(403, 29, "You are not permitted to access that resource (pins:read is required).");
        }
        ObjectNode pin = fake
                .publishedWhere(item -> pinId.equals(item.path("id").asText()))
                .stream()
                .findFirst()
                .orElse(null);
        if (pin == null) {
            return fake.error(404, 50, "Pin not found.");
        }
        Instant now = Instant.now();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate start;
        LocalDate end;
        try {
            start = LocalDate.parse(String.valueOf(request.queryParameter("start_date")));
            end = LocalDate.parse(String.valueOf(request.queryParameter("end_date")));
        } catch (DateTimeParseException e) {
            return fake.error(400, 1, "Invalid parameters: start_date and end_date (YYYY-MM-DD) are required.");
        }
        if (end.isBefore(start) || end.isAfter(today) || start.isBefore(today.minusDays(89))) {
            return fake.error(
                    400, 1, "Invalid parameters: the date range must lie within the last 90 days, up to today.");
        }
        String types = request.queryParameter("metric_types");
        List<String> metrics = types == null ? List.of() : List.of(types.split(","));
        if (metrics.isEmpty() || !PIN_METRICS.containsAll(metrics)) {
            return fake.error(
                    400, 1, "Invalid parameters: metric_types must be among " + String.join(", ", PIN_METRICS) + ".");
        }
        Instant created = LocalDateTime.parse(pin.path("created_at").asText()).toInstant(ZoneOffset.UTC);
        LocalDate createdDay = LocalDate.ofInstant(created, ZoneOffset.UTC);
        ObjectNode all = fake.object();
        ArrayNode daily = all.putArray("daily_metrics");
        long[] summary = new long[metrics.size()];
        for (LocalDate day = start; !day.isAfter(end); day = day.plusDays(1)) {
            ObjectNode entry = daily.addObject().put("date", day.toString());
            if (day.isBefore(createdDay)) {
                entry.put("data_status", "BEFORE_PIN_CREATED");
                entry.putObject("metrics");
                continue;
            }
            Instant dayEnd = day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
            PublishedMetrics.Item upTo = PublishedMetrics.item(pinId, created, dayEnd.isBefore(now) ? dayEnd : now);
            PublishedMetrics.Item before = day.equals(createdDay)
                    ? null
                    : PublishedMetrics.item(pinId, created, day.atStartOfDay().toInstant(ZoneOffset.UTC));
            ObjectNode values = entry.put("data_status", "READY").putObject("metrics");
            for (int i = 0; i < metrics.size(); i++) {
                long added = pinMetric(upTo, metrics.get(i)) - (before == null ? 0 : pinMetric(before, metrics.get(i)));
                values.put(metrics.get(i), added);
                summary[i] += added;
            }
        }
        ObjectNode totals = all.putObject("summary_metrics");
        for (int i = 0; i < metrics.size(); i++) {
            totals.put(metrics.get(i), summary[i]);
        }
        ObjectNode body = fake.object();
        body.set("all", all);
        return fake.json(200, body);
    }

    private static long pinMetric(PublishedMetrics.Item numbers, String metric) {
        return switch (metric) {
            case "IMPRESSION" -> numbers.views();
            case "SAVE" -> numbers.saves();
            case "PIN_CLICK" -> numbers.likes();
            default -> numbers.comments();
        };
    }
}
