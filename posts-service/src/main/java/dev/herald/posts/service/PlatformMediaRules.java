package dev.herald.posts.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How many media items of which types each platform takes in each format, from the platforms' publishing APIs:
 * Instagram one item or a carousel of 2-10 images and videos, a reel one video, a story one image or video; Facebook text,
 * one video or 1-10 photos (a multi-photo post's attached_media takes photos only), a reel one video, a story one image
 * or video; LinkedIn one video, one document (a PDF, through its Documents API) or 1-20 images (multiImage); Pinterest one image, one video (a video pin) or a carousel
 * of 2-5 images; TikTok one video or 1-35 images (a photo post: no video among them); YouTube exactly one video.
 * Sizes, durations and dimensions need the media itself: the media probe's part.
 *
 * @param required whether the platform takes no post without media in this format
 * @param single the types one item may be
 * @param maxItems the most items a post of several takes (1: one item only)
 * @param several the types each item of a post of several may be
 * @param takes what the platform takes, for messages ("one image or video, or a carousel of 2 to 10 of them")
 */
record PlatformMediaRules(boolean required, Set<String> single, int maxItems, Set<String> several, String takes) {
    private static final Set<String> ANY = Set.of(Post.Media.IMAGE, Post.Media.VIDEO);
    // A document is LinkedIn's alone, and alone in its post: no platform's several-item post takes one.
    private static final Set<String> LINKEDIN_ONE = Set.of(Post.Media.IMAGE, Post.Media.VIDEO, Post.Media.DOCUMENT);
    private static final Set<String> IMAGES = Set.of(Post.Media.IMAGE);
    private static final Set<String> VIDEOS = Set.of(Post.Media.VIDEO);
    private static final PlatformMediaRules ONE_ITEM =
            new PlatformMediaRules(true, ANY, 1, Set.of(), "one image or video");
    private static final PlatformMediaRules ONE_VIDEO = new PlatformMediaRules(true, VIDEOS, 1, Set.of(), "one video");

    static PlatformMediaRules of(Platform platform, PostFormat format) {
        return switch (platform) {
            case INSTAGRAM ->
                switch (format) {
                    case FEED ->
                        new PlatformMediaRules(
                                true, ANY, 10, ANY, "one image or video, or a carousel of 2 to 10 images and videos");
                    case REEL -> ONE_VIDEO;
                    case STORY -> ONE_ITEM;
                };
            case FACEBOOK ->
                switch (format) {
                    case FEED -> new PlatformMediaRules(false, ANY, 10, IMAGES, "text, one video, or 1 to 10 images");
                    case REEL -> ONE_VIDEO;
                    case STORY -> ONE_ITEM;
                };
            case LINKEDIN ->
                new PlatformMediaRules(
                        false, LINKEDIN_ONE, 20, IMAGES, "text, one video, one document, or 1 to 20 images");
            case PINTEREST ->
                new PlatformMediaRules(true, ANY, 5, IMAGES, "one image, one video, or a carousel of 2 to 5 images");
            case TIKTOK ->
                new PlatformMediaRules(true, ANY, 35, IMAGES, "one video, or a photo post of 1 to 35 images");
            case YOUTUBE -> ONE_VIDEO;
        };
    }

    /**
     * The problems of the draft's media for {@code what} ("Instagram reels"): count first, then each item's type (a
     * count already wrong says it all, so the types are only checked within a count the platform takes).
     */
    List<FieldError> check(PostDraft draft, String what) {
        if (draft.media() == null) {
            return required && !draft.mediaGiven()
                    ? List.of(new FieldError("media", "required", what + " need media: " + takes + "."))
                    : List.of();
        }
        List<Post.Media> items = draft.media().items();
        if (items.size() > maxItems) {
            return List.of(new FieldError(
                    "media", "too_long", what + " take " + takes + "; media has " + items.size() + " items."));
        }
        Set<String> allowed = items.size() == 1 ? single : several;
        List<FieldError> problems = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String type = items.get(i).type();
            if (!allowed.contains(type)) {
                problems.add(new FieldError(
                        draft.mediaField(i) + ".type",
                        "invalid_value",
                        what + " take " + takes + "; " + draft.mediaField(i) + " is " + article(type) + "."));
            }
        }
        return problems;
    }

    private static String article(String type) {
        return (Post.Media.IMAGE.equals(type) ? "an " : "a ") + type;
    }
}
