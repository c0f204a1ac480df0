package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * TikTok's Display API reads: {@code /v2/user/info/} (the creator's profile and counts) and {@code /v2/video/query/}
 * (the published videos' fields and counts).
 */
final class TikTokDisplayApi {
    private static final Set<String> STATS_FIELDS =
            Set.of("follower_count", "following_count", "likes_count", "video_count");
    private static final List<String> VIDEO_FIELDS = List.of(
            "id", "create_time", "title", "share_url", "like_count", "comment_count", "share_count", "view_count");
    private final TikTokFake fake;

    TikTokDisplayApi(TikTokFake fake) {
        this.fake = fake;
    }

    /**
     * Get User Info: the requested {@code fields} of the creator (all basic ones when none are named). The counts
     * ({@code follower_count, following_count, likes_count, video_count}) need {@code user.info.stats}, refused
     * {@code scope_not_authorized} (HTTP 401, TikTok's error table) without it, and are {@link #userStatistics}.
     */
    FakeResponse userInfo(FakeRequest request, IssuedGrant grant) {
        List<String> fields = fields(request);
        if (fields.stream().anyMatch(STATS_FIELDS::contains) && !grant.scopes().contains("user.info.stats")) {
            return fake.scopeMissing(401);
        }
        ObjectNode user = fake.object()
                .put("open_id", TikTokFake.OPEN_ID)
                .put("union_id", "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1")
                .put("avatar_url", "https://p16-sign.tiktokcdn-us.com/fake/avatar.jpeg")
                .put("display_name", "Herald Fake Dance")
                .put("username", TikTokFake.USERNAME);
        if (!fields.isEmpty()) {
            user.setAll(userStatistics(Instant.now()));
            user.retain(fields);
        }
        ObjectNode data = fake.object();
        data.set("user", user);
        return fake.envelope(200, data, "ok", "");
    }

    /**
     * The creator's counts, a pure function of the published videos and the time: {@code video_count} the videos,
     * {@code likes_count} the sum of their {@code like_count}, {@code follower_count} 1200 plus a twentieth of their
     * views, {@code following_count} 87.
     */
    private ObjectNode userStatistics(Instant now) {
        List<ObjectNode> videos = fake.publishedWhere(item -> true);
        long views = 0;
        long likes = 0;
        for (ObjectNode video : videos) {
            ObjectNode counts = fake.videoCounts(video, now);
            views += counts.get("view_count").asLong();
            likes += counts.get("like_count").asLong();
        }
        return fake.object()
                .put("follower_count", 1200 + views / 20)
                .put("following_count", 87)
                .put("likes_count", likes)
                .put("video_count", videos.size());
    }

    /**
     * Query Videos (Display API, scope {@code video.list}): {@code {"filters": {"video_ids": [1 to 20 ids]}}} and the
     * {@code fields} to answer; the creator's published videos among the ids, the others left out, as TikTok does.
     */
    FakeResponse videoQuery(FakeRequest request) {
        List<String> fields = fields(request);
        if (fields.isEmpty() || !VIDEO_FIELDS.containsAll(fields)) {
            return fake.invalid("fields must name Video object fields (" + String.join(",", VIDEO_FIELDS) + ").");
        }
        JsonNode body = fake.jsonBody(request);
        JsonNode ids = body == null ? null : body.path("filters").path("video_ids");
        if (ids == null || !ids.isArray() || ids.isEmpty() || ids.size() > 20) {
            return fake.invalid("filters.video_ids must list 1 to 20 video ids.");
        }
        Set<String> wanted = new java.util.HashSet<>();
        ids.forEach(id -> wanted.add(id.asText()));
        Instant now = Instant.now();
        ObjectNode data = fake.object();
        var videos = data.putArray("videos");
        for (ObjectNode item :
                fake.publishedWhere(item -> wanted.contains(item.path("id").asText()))) {
            ObjectNode video = fake.videoCounts(item, now)
                    .put("id", item.path("id").asText())
                    .put("create_time", item.path("create_time").asLong())
                    .put("title", item.path("post_info").path("title").asText(""))
                    .put(
                            "share_url",
                            "https://www.tiktok.com/@" + TikTokFake.USERNAME + "/video/"
                                    + item.path("id").asText());
            video.retain(fields);
            videos.add(video);
        }
        data.put("cursor", now.toEpochMilli()).put("has_more", false);
        return fake.envelope(200, data, "ok", "");
    }

    /** The comma-separated {@code fields} query parameter. */
    private static List<String> fields(FakeRequest request) {
        Object fields = request.queryParameter("fields");
        if (fields == null || String.valueOf(fields).isBlank()) {
            return List.of();
        }
        return Arrays.stream(String.valueOf(fields).split(","))
                .map(String::strip)
                .filter(field -> !field.isEmpty())
                .toList();
    }
}
