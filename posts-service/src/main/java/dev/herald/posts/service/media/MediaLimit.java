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

    /** A row with only its subject and formats; the bounds come from the withers. */
    static MediaLimit of(
            Platform platform, String format, MediaFacts.Kind kind, String subject, Set<String> containers) {
        return new MediaLimit(
                platform, format, kind, subject, containers, null, null, null, null, null, null, null, null, null);
    }

    MediaLimit maxMegabytes(long megabytes) {
        return new MediaLimit(
                platform,
                format,
                kind,
                subject,
                containers,
                megabytes * MediaRules.MEGABYTE,
                minDuration,
                maxDuration,
                aspect,
                minWidth,
                minHeight,
                maxWidth,
                maxHeight,
                maxPixels);
    }

    MediaLimit seconds(long min, long max) {
        return new MediaLimit(
                platform,
                format,
                kind,
                subject,
                containers,
                maxBytes,
                min > 0 ? Duration.ofSeconds(min) : null,
                Duration.ofSeconds(max),
                aspect,
                minWidth,
                minHeight,
                maxWidth,
                maxHeight,
                maxPixels);
    }

    MediaLimit aspect(AspectRange range) {
        return new MediaLimit(
                platform,
                format,
                kind,
                subject,
                containers,
                maxBytes,
                minDuration,
                maxDuration,
                range,
                minWidth,
                minHeight,
                maxWidth,
                maxHeight,
                maxPixels);
    }

    MediaLimit minSize(int width, int height) {
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
                width,
                height,
                maxWidth,
                maxHeight,
                maxPixels);
    }

    MediaLimit maxSize(int width, int height) {
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
                width,
                height,
                maxPixels);
    }

    MediaLimit maxPixels(long pixels) {
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
                pixels);
    }
}
