package dev.herald.posts.service.media;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A probed media item against a platform's limits ({@link MediaLimits}): a pure decision, each problem a
 * {@link FieldError} whose message says the measured value and the limit. What the probe could not measure is not
 * checked. The codes, with the probe's own ({@link MediaProbe.Probed}):
 * <ul>
 *   <li>{@code media_format_unsupported}: a file format the platform does not take for this format (a PNG for
 *       Instagram);
 *   <li>{@code media_too_large}: the file is larger than the platform takes;
 *   <li>{@code video_too_long}, {@code video_too_short}: the duration is outside the platform's range;
 *   <li>{@code aspect_ratio_out_of_range}: width over height, as displayed, is outside the platform's range;
 *   <li>{@code dimensions_out_of_range}: too few or too many pixels on a side, or in all.
 * </ul>
 */
public final class MediaRules {
    public static final String MEDIA_FORMAT_UNSUPPORTED = "media_format_unsupported";
    public static final String MEDIA_TOO_LARGE = "media_too_large";
    public static final String VIDEO_TOO_LONG = "video_too_long";
    public static final String VIDEO_TOO_SHORT = "video_too_short";
    public static final String ASPECT_RATIO_OUT_OF_RANGE = "aspect_ratio_out_of_range";
    public static final String DIMENSIONS_OUT_OF_RANGE = "dimensions_out_of_range";

    static final long MEGABYTE = 1024 * 1024;
    private static final Duration SHORT_AT_MOST = Duration.ofMinutes(3);

    private MediaRules() {}

    /** What {@code platform} would refuse about this item in {@code format} ({@link MediaLimits#FEED} when null). */
    public static List<FieldError> problems(Platform platform, String format, String field, MediaFacts facts) {
        if (facts == null || facts.kind() == null) {
            return List.of();
        }
        MediaLimit limit = MediaLimits.find(platform, format, facts.kind()).orElse(null);
        if (limit == null) {
            return List.of();
        }
        String item = "the " + facts.kind().wireName();
        List<FieldError> problems = new ArrayList<>();
        if (facts.container() != null && !limit.containers().contains(facts.container())) {
            problems.add(new FieldError(
                    field,
                    MEDIA_FORMAT_UNSUPPORTED,
                    item + " is " + facts.container().toUpperCase(Locale.ROOT) + "; " + limit.subject() + " must be "
                            + list(limit) + "."));
        }
        if (limit.maxBytes() != null && facts.sizeBytes() != null && facts.sizeBytes() > limit.maxBytes()) {
            problems.add(new FieldError(
                    field,
                    MEDIA_TOO_LARGE,
                    item + " is " + megabytes(facts.sizeBytes()) + " (" + facts.sizeBytes() + " bytes); "
                            + limit.subject() + " must be at most " + megabytes(limit.maxBytes()) + "."));
        }
        Duration duration = facts.duration();
        if (duration != null && limit.maxDuration() != null && duration.compareTo(limit.maxDuration()) > 0) {
            problems.add(new FieldError(
                    field,
                    VIDEO_TOO_LONG,
                    item + " is " + seconds(duration) + " long; " + limit.subject() + " must be at most "
                            + seconds(limit.maxDuration()) + "."));
        }
        if (duration != null && limit.minDuration() != null && duration.compareTo(limit.minDuration()) < 0) {
            problems.add(new FieldError(
                    field,
                    VIDEO_TOO_SHORT,
                    item + " is " + seconds(duration) + " long; " + limit.subject() + " must be at least "
                            + seconds(limit.minDuration()) + "."));
        }
        Double aspect = facts.aspectRatio();
        if (aspect != null && limit.aspect() != null && !limit.aspect().contains(aspect)) {
            problems.add(new FieldError(
                    field,
                    ASPECT_RATIO_OUT_OF_RANGE,
                    item + " is " + ratio(facts.width(), facts.height()) + " (" + facts.dimensions() + "); "
                            + limit.subject() + " must be " + limit.aspect().rule() + "."));
        }
        dimensionsProblem(limit, facts)
                .ifPresent(rule -> problems.add(new FieldError(
                        field,
                        DIMENSIONS_OUT_OF_RANGE,
                        item + " is " + facts.dimensions() + "; " + limit.subject() + " must be " + rule + ".")));
        return problems;
    }

    /**
     * Whether YouTube will likely publish this video as a Short: vertical or square and at most 3 minutes. YouTube
     * decides; a dry run says so as information, never as a problem.
     */
    public static boolean youTubeShort(MediaFacts facts) {
        return facts != null
                && facts.kind() == MediaFacts.Kind.VIDEO
                && facts.duration() != null
                && facts.duration().compareTo(SHORT_AT_MOST) <= 0
                && facts.aspectRatio() != null
                && facts.aspectRatio() <= 1.0;
    }

    private static Optional<String> dimensionsProblem(MediaLimit limit, MediaFacts facts) {
        if (facts.width() == null || facts.height() == null) {
            return Optional.empty();
        }
        int width = facts.width();
        int height = facts.height();
        if ((limit.minWidth() != null && width < limit.minWidth())
                || (limit.minHeight() != null && height < limit.minHeight())) {
            return Optional.of("at least " + limit.minWidth() + "x" + limit.minHeight());
        }
        if ((limit.maxWidth() != null && width > limit.maxWidth())
                || (limit.maxHeight() != null && height > limit.maxHeight())) {
            return Optional.of("at most " + limit.maxWidth() + "x" + limit.maxHeight());
        }
        if (limit.maxPixels() != null && (long) width * height > limit.maxPixels()) {
            return Optional.of("at most " + String.format(Locale.ROOT, "%,d", limit.maxPixels()) + " pixels in all");
        }
        return Optional.empty();
    }

    private static String list(MediaLimit limit) {
        List<String> names = limit.containers().stream()
                .map(name -> name.toUpperCase(Locale.ROOT))
                .sorted()
                .toList();
        return names.size() == 1
                ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /** "5:1" or "9:16" when the reduced terms are small, else "1.91:1" or "1:2.05". */
    static String ratio(double width, double height) {
        if (width == Math.rint(width) && height == Math.rint(height)) {
            long w = (long) width;
            long h = (long) height;
            long gcd = gcd(w, h);
            if (gcd > 0 && w / gcd <= 32 && h / gcd <= 32) {
                return (w / gcd) + ":" + (h / gcd);
            }
        }
        return width >= height ? decimal(width / height) + ":1" : "1:" + decimal(height / width);
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static String decimal(double value) {
        return BigDecimal.valueOf(value)
                .setScale(2, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String megabytes(long bytes) {
        return decimal((double) bytes / MEGABYTE) + " MB";
    }

    /** "90 s" under two minutes, else "2 min 30 s", "15 min". */
    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 120_000) {
            return decimal(millis / 1000.0) + " s";
        }
        long minutes = duration.toMinutes();
        long rest = duration.minusMinutes(minutes).toSeconds();
        return rest == 0 ? minutes + " min" : minutes + " min " + rest + " s";
    }
}
