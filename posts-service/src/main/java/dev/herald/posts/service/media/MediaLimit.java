package dev.herald.posts.service.media;

import dev.herald.common.wire.Platform;
import java.time.Duration;
import java.util.Set;

/**
 * One row of {@link MediaLimits}: what a platform takes for one format and kind of media item. A null bound is one the
 * platform does not document (or documents as a recommendation only): nothing is checked against it.
 *
 * @param subject how messages name what the row is about ("Instagram feed images")
 * @param containers the file formats taken, as {@link MediaFacts#container()} names them
 * @param maxBytes the largest file, in bytes
 * @param aspect the aspect ratios taken (width over height, as displayed)
 * @param maxPixels the most pixels (width times height)
 */
public record MediaLimit(
        Platform platform,
        String format,
        MediaFacts.Kind kind,
        String subject,
        Set<String> containers,
        Long maxBytes,
        Duration minDuration,
        Duration maxDuration,
        AspectRange aspect,
        Integer minWidth,
        Integer minHeight,
        Integer maxWidth,
        Integer maxHeight,
        Long maxPixels) {

    /** Aspect ratios from {@code min} to {@code max} (width over height), said as {@code rule} in messages. */
    public record AspectRange(double min, double max, String rule) {
        public boolean contains(double ratio) {
            // A hundredth of slack: 1080x1350 is 4:5 even if an encoder rounded it to 1080x1352.
            return ratio >= min * 0.99 && ratio <= max * 1.01;
        }

        /** From {@code w1:h1} to {@code w2:h2}, said "between 4:5 and 1.91:1". */
        static AspectRange between(double w1, double h1, double w2, double h2) {
            return new AspectRange(
                    w1 / h1, w2 / h2, "between " + MediaRules.ratio(w1, h1) + " and " + MediaRules.ratio(w2, h2));
        }

        /** Exactly {@code w:h} (within the slack), said "9:16". */
        static AspectRange exactly(int w, int h) {
            return new AspectRange((double) w / h, (double) w / h, w + ":" + h);
        }
    }

    /** A row with only its subject and formats; the bounds come from the builder's other methods. */
    static Builder of(Platform platform, String format, MediaFacts.Kind kind, String subject, Set<String> containers) {
        return new Builder(platform, format, kind, subject, containers);
    }

    /** Writes a row of {@link MediaLimits}' table as the platform's documentation words it. */
    static final class Builder {
        private final Platform platform;
        private final String format;
        private final MediaFacts.Kind kind;
        private final String subject;
        private final Set<String> containers;
        private Long maxBytes;
        private Duration minDuration;
        private Duration maxDuration;
        private AspectRange aspect;
        private Integer minWidth;
        private Integer minHeight;
        private Integer maxWidth;
        private Integer maxHeight;
        private Long maxPixels;

        private Builder(
                Platform platform, String format, MediaFacts.Kind kind, String subject, Set<String> containers) {
            this.platform = platform;
            this.format = format;
            this.kind = kind;
            this.subject = subject;
            this.containers = containers;
        }

        Builder maxMegabytes(long megabytes) {
            maxBytes = megabytes * MediaRules.MEGABYTE;
            return this;
        }

        /** From {@code min} seconds (0: no minimum) to {@code max}. */
        Builder seconds(long min, long max) {
            minDuration = min > 0 ? Duration.ofSeconds(min) : null;
            maxDuration = Duration.ofSeconds(max);
            return this;
        }

        Builder aspect(AspectRange range) {
            aspect = range;
            return this;
        }

        Builder minSize(int width, int height) {
            minWidth = width;
            minHeight = height;
            return this;
        }

        Builder maxSize(int width, int height) {
            maxWidth = width;
            maxHeight = height;
            return this;
        }

        Builder maxPixels(long pixels) {
            maxPixels = pixels;
            return this;
        }

        MediaLimit limit() {
            return new MediaLimit(
                    platform,
                    format,
                    kind,
                    subject,
                    containers,
                    maxBytes,
                    minDuration,
                    maxDuration,
                    aspect,
                    minWidth,
                    minHeight,
                    maxWidth,
                    maxHeight,
                    maxPixels);
        }
    }
}
