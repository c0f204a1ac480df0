package dev.herald.posts.service;

import java.util.Locale;
import java.util.Optional;

/**
 * What a post becomes on a platform that publishes the same media in several ways ({@code platform_options.instagram
 * .format} and {@code platform_options.facebook.format}): a feed post (a single item or a carousel), a reel (one video),
 * or a story (one image or video, gone after 24 hours). Feed when not chosen.
 */
enum PostFormat {
    FEED,
    REEL,
    STORY;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<PostFormat> fromWire(String value) {
        for (PostFormat format : values()) {
            if (format.wireName().equals(value)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }
}
