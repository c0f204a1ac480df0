package dev.herald.posts.service.media;

import dev.herald.common.wire.Post;
import java.time.Duration;

/**
 * What a bounded probe learnt about one media item: its host's {@code Content-Type}, its size, and what its header
 * says. Every field is null when it could not be known (no {@code Content-Length}, a header cut off, a container Herald
 * does not read); rules skip what is unknown rather than refuse it. {@code width} and {@code height} are as displayed:
 * a video track's rotation matrix and a JPEG's EXIF orientation are applied, so a phone's portrait video reads as
 * portrait.
 *
 * @param contentType the host's media type without parameters ({@code image/jpeg}), or null
 * @param sizeBytes the whole file's size ({@code Content-Range}'s total, else {@code Content-Length} of a full answer)
 * @param kind image, video or document, from the bytes when they are recognised, else from {@code contentType}
 * @param container the file format read from the bytes ({@code mp4}, {@code mov}, {@code jpeg}, ...), else the one
 *     {@code contentType} names
 * @param codec the video track's sample entry ({@code avc1}, {@code hvc1}, {@code vp09}), where the header has it
 * @param duration a video's duration (the movie header's duration over its time scale)
 */
public record MediaFacts(
        String contentType,
        Long sizeBytes,
        Kind kind,
        String container,
        String codec,
        Integer width,
        Integer height,
        Duration duration) {

    /** The kinds a post's media item declares ({@link Post.Media#type}). */
    public enum Kind {
        IMAGE(Post.Media.IMAGE),
        VIDEO(Post.Media.VIDEO),
        DOCUMENT(Post.Media.DOCUMENT);

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /** "an image", "a video", "a document": how messages name the kind. */
    public static String article(Kind kind) {
        return switch (kind) {
            case IMAGE -> "an image";
            case VIDEO -> "a video";
            case DOCUMENT -> "a document";
        };
    }

    /** Width over height as displayed, or null when either is unknown or zero. */
    public Double aspectRatio() {
        return width == null || height == null || width <= 0 || height <= 0 ? null : (double) width / height;
    }

    /** "1080x1920", or null when the dimensions are unknown. */
    public String dimensions() {
        return width == null || height == null ? null : width + "x" + height;
    }
}
