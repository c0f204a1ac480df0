package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Instagram's content publishing and media reads: media containers ({@code POST /{ig-user-id}/media}), publishing them
 * ({@code media_publish}), the account's recent media, a container's or media's fields, and a media's lifetime
 * insights.
 */
final class InstagramMedia {
    private final Map<String, ObjectNode> containers = new ConcurrentHashMap<>();
    private final InstagramFake fake;
    private final InstagramContainerKinds kinds;

    InstagramMedia(InstagramFake fake) {
        this.fake = fake;
        this.kinds = new InstagramContainerKinds(fake);
    }

    FakeResponse createContainer(FakeRequest request, IssuedGrant grant, String user) {
        FakeResponse refused = fake.refuseOtherAccount(grant, user, "instagram_business_content_publish");
        if (refused != null) {
            return refused;
        }
        InstagramContainerKinds.Made made = kinds.container(request, user, containers);
        if (made.refusal() != null) {
            return made.refusal();
        }
        String id = FakeIds.digits(17);
        boolean fails = request.failure() != null && request.failure().getKind() == FailureKind.PROCESSING_ERROR;
        ObjectNode container = made.container()
                .put("id", id)
                .put("user", user)
                .put("status_code", fails ? "ERROR" : "FINISHED")
                .put(
                        "status",
                        fails
                                ? "Error: Media upload has failed with error code 2207026"
                                : "Finished: Media has been uploaded and it is ready to be published.");
        containers.put(id, container);
        return fake.json(200, fake.object().put("id", id));
    }

    FakeResponse publishContainer(FakeRequest request, IssuedGrant grant, String user) {
        FakeResponse refused = fake.refuseOtherAccount(grant, user, "instagram_business_content_publish");
        if (refused != null) {
            return refused;
        }
        ObjectNode container = containers.get(String.valueOf(fake.parameter(request, "creation_id")));
        // A carousel item is published only through its carousel container.
        if (container == null
                || !user.equals(container.path("user").asText())
                || container.path("is_carousel_item").asBoolean(false)) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            100,
                            2207001,
                            "Invalid parameter: creation_id is not a container of this account that can be published"
                                    + " (a carousel item is published through its carousel)",
                            false));
        }
        if (!"FINISHED".equals(container.path("status_code").asText())) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            9007,
                            2207027,
                            "Media ID is not available: the container is "
                                    + container.path("status_code").asText(),
                            false));
        }
        container.put("status_code", "PUBLISHED");
        String mediaId = FakeIds.digits(17);
        boolean story = "STORY".equals(container.path("media_product_type").asText());
        ObjectNode media = fake.object()
                .put("id", mediaId)
                .put("media_type", container.path("media_type").asText())
                .put("media_product_type", container.path("media_product_type").asText())
                .put(
                        "permalink",
                        story
                                ? "https://www.instagram.com/stories/" + InstagramFake.USERNAME + "/" + mediaId + "/"
                                : "https://www.instagram.com/p/" + FakeIds.token("C", 10) + "/")
                .put("timestamp", OffsetDateTime.now(ZoneOffset.UTC).format(InstagramFake.GRAPH_TIME))
                .put("username", InstagramFake.USERNAME)
                .put("container_id", container.path("id").asText());
        if (container.hasNonNull("caption")) {
            media.put("caption", container.get("caption").asText());
        }
        if (container.has("children")) {
            // A carousel's children become media of their own, listed in order on the carousel's children edge.
            ArrayNode children = media.putObject("children").putArray("data");
            for (JsonNode childId : container.get("children")) {
                ObjectNode child = containers.get(childId.asText());
                child.put("status_code", "PUBLISHED");
                children.addObject()
                        .put("id", FakeIds.digits(17))
                        .put("media_type", child.path("media_type").asText())
                        .put("media_url", mediaUrl(child));
            }
            media.put("media_url", children.get(0).path("media_url").asText());
        } else {
            media.put("media_url", mediaUrl(container));
        }
        fake.publish(media);
        return fake.json(200, fake.object().put("id", mediaId));
    }

    /**
     * The account's latest media ({@code /{user}/media}: feed posts, carousels and Reels) or its stories
     * ({@code /{user}/stories}), newest first; neither lists the other's, as at Instagram.
     */
    FakeResponse recentMedia(FakeRequest request, IssuedGrant grant, String user, boolean stories) {
        FakeResponse refused = fake.refuseOtherAccount(grant, user, "instagram_business_basic");
        if (refused != null) {
            return refused;
        }
        int limit = request.intQueryParameter("limit", 25);
        ObjectNode body = fake.object();
        ArrayNode data = body.putArray("data");
        fake.published().stream()
                .filter(item -> stories
                        == "STORY".equals(item.path("media_product_type").asText()))
                .limit(limit)
                .forEach(item -> data.add(selected((ObjectNode) item, request)));
        body.putObject("paging")
                .putObject("cursors")
                .put("before", "QVFIUmJlZm9yZQ")
                .put("after", "QVFIUmFmdGVy");
        return fake.json(200, body);
    }

    /**
     * A media object's insights (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights):
     * each metric asked for, lifetime, in the order asked, {@link PublishedMetrics}'s numbers ({@code saved} its saves).
     * A metric the fake does not know is Graph's #100; media the account did not publish, the "does not exist" error.
     */
    FakeResponse insights(FakeRequest request, IssuedGrant grant, String mediaId) {
        JsonNode media = fake.published().stream()
                .filter(item -> mediaId.equals(item.path("id").asText()))
                .findFirst()
                .orElse(null);
        if (media == null || !grant.subject().equals(InstagramFake.USER_ID)) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "GraphMethodException",
                            100,
                            33,
                            "Unsupported get request. Object with ID '" + mediaId + "' does not exist",
                            false));
        }
        String metric = fake.parameter(request, "metric");
        PublishedMetrics.Item numbers = numbers(media, Instant.now());
        ObjectNode body = fake.object();
        ArrayNode data = body.putArray("data");
        for (String name : metric == null ? new String[0] : metric.split(",")) {
            Long value = switch (name.trim()) {
                case "views", "impressions" -> numbers.views();
                case "reach" -> numbers.reach();
                case "likes" -> numbers.likes();
                case "comments" -> numbers.comments();
                case "shares" -> numbers.shares();
                case "saved" -> numbers.saves();
                case "total_interactions" -> numbers.likes() + numbers.comments() + numbers.shares() + numbers.saves();
                default -> null;
            };
            if (value == null) {
                return fake.json(
                        400,
                        GraphErrorShapes.error(
                                fake.object(),
                                "OAuthException",
                                100,
                                null,
                                "(#100) metric[" + data.size()
                                        + "] must be one of the following values: views, reach, likes, comments, shares, saved,"
                                        + " total_interactions",
                                false));
            }
            ObjectNode insight = data.addObject().put("name", name.trim()).put("period", "lifetime");
            insight.putArray("values").addObject().put("value", value);
            insight.put("id", mediaId + "/insights/" + name.trim() + "/lifetime");
        }
        if (data.isEmpty()) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) The parameter metric is required",
                            false));
        }
        return fake.json(200, body);
    }

    static PublishedMetrics.Item numbers(JsonNode media, Instant now) {
        return PublishedMetrics.item(
                media.path("id").asText(),
                OffsetDateTime.parse(media.path("timestamp").asText(), InstagramFake.GRAPH_TIME)
                        .toInstant(),
                now);
    }

    /** A container or a media object, with the fields asked for. */
    FakeResponse node(FakeRequest request, String id) {
        ObjectNode container = containers.get(id);
        if (container != null) {
            return fake.json(200, selected(container, request));
        }
        for (JsonNode media : fake.published()) {
            if (id.equals(media.path("id").asText())) {
                return fake.json(200, selected((ObjectNode) media, request));
            }
        }
        return fake.json(
                400,
                GraphErrorShapes.error(
                        fake.object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported get request. Object with ID '" + id + "' does not exist",
                        false));
    }

    ObjectNode selected(ObjectNode item, FakeRequest request) {
        String fields = fake.parameter(request, "fields");
        ObjectNode shown = fake.object();
        for (String field : (fields == null ? "id" : fields + ",id").split(",")) {
            JsonNode value = item.get(field.trim());
            if (value != null) {
                shown.set(field.trim(), value);
            }
        }
        return shown;
    }

    private static String mediaUrl(JsonNode container) {
        return container
                .path(container.hasNonNull("image_url") ? "image_url" : "video_url")
                .asText();
    }

    void reset() {
        containers.clear();
    }
}
