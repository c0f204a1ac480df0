package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Facebook's Pages endpoints: publishing to a Page's {@code feed} (a multi-photo post's {@code attached_media} too),
 * {@code photos} and {@code videos} edges, Reels and stories ({@link FacebookUploads}), listing them, and reading the
 * Page's and its items' fields and metrics.
 * <p>Longer than 300 lines: every publishing edge and every node read checks the same Page and shows the same stored
 * items, so splitting them would spread one item shape over several classes.
 */
final class FacebookPages {
    private final FacebookGraphFake fake;
    private final FacebookUploads uploads;

    FacebookPages(FacebookGraphFake fake, FacebookUploads uploads) {
        this.fake = fake;
        this.uploads = uploads;
    }

    FakeResponse create(FakeRequest request, IssuedGrant grant, String page, String edge) {
        if (!page.equals(grant.subject())) {
            return fake.json(
                    403,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with"
                                    + " sufficient administrative permission",
                            false));
        }
        if (!grant.scopes().containsAll(Set.of("pages_manage_posts", "pages_read_engagement"))) {
            return fake.json(
                    403,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) The token lacks pages_manage_posts and pages_read_engagement",
                            false));
        }
        Map<String, String> fields = request.form();
        String now = OffsetDateTime.now(ZoneOffset.UTC).format(FacebookGraphFake.GRAPH_TIME);
        switch (edge) {
            case "video_reels", "video_stories":
                return uploads.videoSession(request, page, edge);
            case "photo_stories":
                return uploads.photoStory(page, fields.get("photo_id"));
            case "feed": {
                FacebookUploads.Attached attached = uploads.attach(fields, page);
                if (attached != null && attached.refusal() != null) {
                    return attached.refusal();
                }
                if (blank(fields.get("message")) && blank(fields.get("link")) && attached == null) {
                    return fake.json(
                            400,
                            GraphErrorShapes.error(
                                    fake.object(),
                                    "OAuthException",
                                    100,
                                    null,
                                    "(#100) Either message or link must be supplied",
                                    false));
                }
                String id = page + "_" + FakeIds.digits(16);
                ObjectNode post =
                        fake.object().put("id", id).put("created_time", now).put("edge", "feed");
                putIfPresent(post, "message", fields.get("message"));
                putIfPresent(post, "link", fields.get("link"));
                if (attached != null) {
                    post.set("attached_photos", attached.attachments());
                }
                fake.publish(post);
                return fake.json(200, fake.object().put("id", id));
            }
            case "photos": {
                if (blank(fields.get("url"))) {
                    return fake.json(
                            400,
                            GraphErrorShapes.error(
                                    fake.object(),
                                    "OAuthException",
                                    324,
                                    2069019,
                                    "(#324) Requires upload file",
                                    false));
                }
                if ("false".equals(fields.get("published"))) {
                    return uploads.unpublishedPhoto(page, fields.get("url"));
                }
                String photoId = FakeIds.digits(16);
                String postId = page + "_" + FakeIds.digits(16);
                ObjectNode post = fake.object()
                        .put("id", postId)
                        .put("photo_id", photoId)
                        .put("created_time", now)
                        .put("edge", "photos")
                        .put("url", fields.get("url"));
                putIfPresent(post, "message", fields.get("message"));
                fake.publish(post);
                return fake.json(200, fake.object().put("id", photoId).put("post_id", postId));
            }
            default: {
                if (blank(fields.get("file_url"))) {
                    return fake.json(
                            400,
                            GraphErrorShapes.error(
                                    fake.object(),
                                    "OAuthException",
                                    100,
                                    null,
                                    "(#100) file_url or source is required",
                                    false));
                }
                String videoId = FakeIds.digits(16);
                ObjectNode video = fake.object()
                        .put("id", videoId)
                        .put("created_time", now)
                        .put("edge", "videos")
                        .put("file_url", fields.get("file_url"));
                putIfPresent(video, "description", fields.get("description"));
                fake.publish(video);
                return fake.json(200, fake.object().put("id", videoId));
            }
        }
    }

    FakeResponse list(FakeRequest request, IssuedGrant grant, String page, String edge) {
        if (!page.equals(grant.subject()) && !grant.subject().equals(FacebookGraphFake.USER_ID)) {
            return fake.json(
                    403,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            10,
                            null,
                            "(#10) This endpoint requires the 'pages_read_engagement' permission",
                            false));
        }
        int limit = request.intQueryParameter("limit", 25);
        String fields = request.queryParameter("fields");
        Set<String> wanted = new LinkedHashSet<>(List.of((fields == null ? "id" : fields).split(",")));
        ObjectNode body = fake.object();
        ArrayNode data = body.putArray("data");
        // A Page's feed shows its photo posts too; every other edge only its own items.
        fake
                .publishedWhere(item -> "feed".equals(edge)
                        ? List.of("feed", "photos").contains(item.path("edge").asText())
                        : edge.equals(item.path("edge").asText()))
                .stream()
                .filter(item -> item.path("id").asText().startsWith(page) || !"feed".equals(edge))
                .limit(limit)
                .forEach(item -> {
                    ObjectNode shown = data.addObject();
                    wanted.forEach(field -> {
                        JsonNode value = item.get(field.trim());
                        if (value != null) {
                            shown.set(field.trim(), value);
                        }
                    });
                });
        body.putObject("paging")
                .putObject("cursors")
                .put("before", "QVFIUmJlZAm9yZQ")
                .put("after", "QVFIUmFmdGVy");
        return fake.json(200, body);
    }

    /**
     * A node's fields (https://developers.facebook.com/docs/graph-api/reference/page, .../pagepost,
     * .../video): the Page ({@code id}, {@code name}, {@code username}, {@code category}, {@code followers_count},
     * {@code fan_count}), or a post or video the fake published, with the edges Herald expands
     * ({@code reactions}/{@code comments} with {@code .summary(total_count)}, listing none of them; {@code shares} of a
     * post; a post's lifetime {@code insights.metric(post_impressions,post_impressions_unique)}). Numbers are
     * {@link PublishedMetrics}'s: impressions = views, unique impressions = reach, reactions = likes; a Page's followers
     * and fans its account numbers over everything published. A field the node type lacks is Graph's #100; an id the
     * fake never published its "does not exist" error.
     */
    FakeResponse node(FakeRequest request, String id) {
        List<GraphFields> fields = GraphFields.parse(request.queryParameter("fields"));
        Instant now = Instant.now();
        if (FacebookGraphFake.PAGE_ID.equals(id)) {
            PublishedMetrics.Account counts = PublishedMetrics.account(
                    fake.published().stream().map(item -> numbers(item, now)).toList());
            ObjectNode page = fake.object().put("id", FacebookGraphFake.PAGE_ID);
            for (GraphFields field : fields) {
                switch (field.name()) {
                    case "id" -> {}
                    case "name" -> page.put("name", FacebookGraphFake.PAGE_NAME);
                    case "username" -> page.put("username", "heraldfakebakery");
                    case "category" -> page.put("category", "Bakery");
                    case "followers_count" -> page.put("followers_count", counts.followers());
                    case "fan_count" -> page.put("fan_count", counts.likes());
                    default -> {
                        return fake.nonexistingField(field.name(), "Page");
                    }
                }
            }
            return fake.json(200, page);
        }
        JsonNode item = fake.published().stream()
                .filter(published -> id.equals(published.path("id").asText()))
                .findFirst()
                .orElse(null);
        if (item == null) {
            return fake.doesNotExist("get", id);
        }
        boolean video = "videos".equals(item.path("edge").asText());
        PublishedMetrics.Item numbers = numbers(item, now);
        ObjectNode shown = fake.object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id", "created_time", "message", "link", "description" -> {
                    if (item.has(field.name())) {
                        shown.set(field.name(), item.get(field.name()));
                    }
                }
                case "attachments" -> shown.set("attachments", uploads.attachmentsOf(item));
                case "reactions" -> summaryEdge(shown, field, numbers.likes()).put("viewer_reaction", "NONE");
                case "comments" -> summaryEdge(shown, field, numbers.comments()).put("can_comment", true);
                case "shares" -> {
                    if (video) {
                        return fake.nonexistingField(field.name(), "Video");
                    }
                    shown.putObject("shares").put("count", numbers.shares());
                }
                case "insights" -> {
                    if (video) {
                        return fake.nonexistingField(field.name(), "Video");
                    }
                    ArrayNode data = fake.object().putArray("data");
                    List<String> metrics = field.argument("metric");
                    for (String metric : metrics == null ? List.<String>of() : metrics) {
                        ObjectNode insight =
                                data.addObject().put("name", metric).put("period", "lifetime");
                        switch (metric) {
                            case "post_impressions" -> {
                                insight.putArray("values").addObject().put("value", numbers.views());
                                insight.put("title", "Lifetime Post Total Impressions")
                                        .put(
                                                "description",
                                                "Lifetime: The number of times your Page's post entered a person's screen. (Total Count)");
                            }
                            case "post_impressions_unique" -> {
                                insight.putArray("values").addObject().put("value", numbers.reach());
                                insight.put("title", "Lifetime Post Total Reach")
                                        .put(
                                                "description",
                                                "Lifetime: The number of people who had your Page's post enter their screen. (Unique Users)");
                            }
                            default -> {
                                return fake.json(
                                        400,
                                        GraphErrorShapes.error(
                                                fake.object(),
                                                "OAuthException",
                                                100,
                                                null,
                                                "(#100) The value must be a valid insights metric",
                                                false));
                            }
                        }
                        insight.put("id", id + "/insights/" + metric + "/lifetime");
                    }
                    shown.putObject("insights").set("data", data);
                }
                default -> {
                    return fake.nonexistingField(field.name(), video ? "Video" : "PagePost");
                }
            }
        }
        return fake.json(200, shown.put("id", id));
    }

    /** An edge asked for with {@code .summary(total_count)} and {@code .limit(0)}: no items, the count in its summary. */
    private ObjectNode summaryEdge(ObjectNode shown, GraphFields field, long count) {
        ObjectNode edge = shown.putObject(field.name());
        edge.putArray("data");
        if (field.argument("summary") == null) {
            return fake.object();
        }
        return edge.putObject("summary").put("total_count", count);
    }

    private static PublishedMetrics.Item numbers(JsonNode item, Instant now) {
        return PublishedMetrics.item(
                item.path("id").asText(),
                OffsetDateTime.parse(item.path("created_time").asText(), FacebookGraphFake.GRAPH_TIME)
                        .toInstant(),
                now);
    }

    static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
