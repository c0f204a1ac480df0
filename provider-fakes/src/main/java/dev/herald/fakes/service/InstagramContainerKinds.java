package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import java.util.List;
import java.util.Map;

/**
 * What each kind of Instagram media container takes, and what Instagram refuses
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing): an image ({@code image_url}), a Reel
 * ({@code media_type=REELS}, {@code video_url}), a story ({@code media_type=STORIES} with {@code image_url} or
 * {@code video_url}; a caption is ignored), a carousel item ({@code is_carousel_item=true} with {@code image_url}, or
 * {@code media_type=VIDEO} with {@code video_url}) and a carousel ({@code media_type=CAROUSEL}, {@code children}: 2 to
 * 10 finished carousel items of the same account, each used once, comma-separated). {@code VIDEO} outside a carousel is
 * refused, as Instagram now takes feed videos as Reels only.
 */
final class InstagramContainerKinds {
    static final int MIN_CHILDREN = 2;
    static final int MAX_CHILDREN = 10;

    private final InstagramFake fake;

    InstagramContainerKinds(InstagramFake fake) {
        this.fake = fake;
    }

    /**
     * The container's fields ({@code media_type} IMAGE, VIDEO or CAROUSEL_ALBUM; {@code media_product_type}
     * FEED, REELS, STORY; {@code is_carousel_item}; the URLs, caption and children), or Instagram's refusal in
     * {@link Made#refusal}.
     */
    Made container(FakeRequest request, String user, Map<String, ObjectNode> containers) {
        String imageUrl = fake.parameter(request, "image_url");
        String videoUrl = fake.parameter(request, "video_url");
        String mediaType = fake.parameter(request, "media_type");
        boolean carouselItem = "true".equalsIgnoreCase(fake.parameter(request, "is_carousel_item"));
        ObjectNode container = fake.object();
        if ("CAROUSEL".equals(mediaType)) {
            return carousel(request, user, containers, container);
        }
        if (carouselItem) {
            boolean video = "VIDEO".equals(mediaType);
            if (video ? videoUrl == null : imageUrl == null || (mediaType != null && !"IMAGE".equals(mediaType))) {
                return refused(
                        2207052,
                        "The media could not be fetched from this URI: a carousel item takes image_url, or media_type"
                                + " VIDEO with video_url");
            }
            container.put("is_carousel_item", true).put("media_type", video ? "VIDEO" : "IMAGE");
            return new Made(urls(container, imageUrl, videoUrl).put("media_product_type", "FEED"), null);
        }
        if ("STORIES".equals(mediaType)) {
            if ((imageUrl == null) == (videoUrl == null)) {
                return refused(
                        2207052, "The media could not be fetched from this URI: a story takes image_url or video_url");
            }
            // Stories take no caption: one sent is ignored, as Instagram does.
            container.put("media_type", imageUrl != null ? "IMAGE" : "VIDEO").put("media_product_type", "STORY");
            return new Made(urls(container, imageUrl, videoUrl), null);
        }
        if ("REELS".equals(mediaType) && videoUrl != null) {
            container.put("media_type", "VIDEO").put("media_product_type", "REELS");
        } else if (mediaType == null && imageUrl != null) {
            container.put("media_type", "IMAGE").put("media_product_type", "FEED");
        } else {
            return refused(
                    2207052,
                    "The media could not be fetched from this URI: image_url or video_url with media_type REELS is"
                            + " required");
        }
        putIfPresent(container, "caption", fake.parameter(request, "caption"));
        putIfPresent(container, "alt_text", fake.parameter(request, "alt_text"));
        return new Made(urls(container, imageUrl, videoUrl), null);
    }

    private Made carousel(FakeRequest request, String user, Map<String, ObjectNode> containers, ObjectNode container) {
        String children = fake.parameter(request, "children");
        if (children == null || children.isBlank()) {
            return refused(null, "(#100) The parameter children is required for media_type CAROUSEL");
        }
        List<String> ids = List.of(children.split(","));
        if (ids.size() < MIN_CHILDREN || ids.size() > MAX_CHILDREN) {
            return refused(
                    2207010,
                    "(#100) A carousel takes " + MIN_CHILDREN + " to " + MAX_CHILDREN + " children; got " + ids.size());
        }
        ArrayNode listed = container.putArray("children");
        for (String id : ids) {
            ObjectNode child = containers.get(id.trim());
            if (child == null
                    || !user.equals(child.path("user").asText())
                    || !child.path("is_carousel_item").asBoolean(false)) {
                return refused(
                        2207001, "Invalid parameter: child " + id.trim() + " is not a carousel item of this account");
            }
            if (!"FINISHED".equals(child.path("status_code").asText())) {
                return refused(
                        2207027,
                        "Media ID is not available: child " + id.trim() + " is "
                                + child.path("status_code").asText());
            }
            listed.add(id.trim());
        }
        container.put("media_type", "CAROUSEL_ALBUM").put("media_product_type", "FEED");
        putIfPresent(container, "caption", fake.parameter(request, "caption"));
        return new Made(container, null);
    }

    private static ObjectNode urls(ObjectNode container, String imageUrl, String videoUrl) {
        putIfPresent(container, "image_url", imageUrl);
        putIfPresent(container, "video_url", videoUrl);
        return container;
    }

    private Made refused(Integer subcode, String message) {
        return new Made(
                null,
                fake.json(400, GraphErrorShapes.error(fake.object(), "IGApiException", 100, subcode, message, false)));
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    /** A container's fields, or the refusal that made none. */
    record Made(ObjectNode container, FakeResponse refusal) {}
}
