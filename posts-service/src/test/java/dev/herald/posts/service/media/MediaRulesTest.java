package dev.herald.posts.service.media;

import static dev.herald.common.wire.Platform.FACEBOOK;
import static dev.herald.common.wire.Platform.INSTAGRAM;
import static dev.herald.common.wire.Platform.LINKEDIN;
import static dev.herald.common.wire.Platform.PINTEREST;
import static dev.herald.common.wire.Platform.TIKTOK;
import static dev.herald.common.wire.Platform.YOUTUBE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A probed item against each platform's documented limits, and the messages a customer reads. */
class MediaRulesTest {
    private static final String FIELD = "media[0].url";

    private static MediaFacts image(String container, long bytes, int width, int height) {
        return new MediaFacts("image/" + container, bytes, MediaFacts.Kind.IMAGE, container, null, width, height, null);
    }

    private static MediaFacts video(String container, long bytes, int width, int height, Duration duration) {
        return new MediaFacts("video/mp4", bytes, MediaFacts.Kind.VIDEO, container, "avc1", width, height, duration);
    }

    @Test
    void aFiveToOneImageIsOutOfInstagramsFeedRange() {
        assertThat(MediaRules.problems(INSTAGRAM, "feed", FIELD, image("jpeg", 400_000, 2500, 500)))
                .containsExactly(new FieldError(
                        FIELD,
                        "aspect_ratio_out_of_range",
                        "the image is 5:1 (2500x500); Instagram feed images must be between 4:5 and 1.91:1."));
    }

    @Test
    void instagramsFeedTakesFourToFiveAndOnePointNineOneToOneButNotThreeToFour() {
        assertThat(MediaRules.problems(INSTAGRAM, "feed", FIELD, image("jpeg", 1, 1080, 1350)))
                .isEmpty();
        assertThat(MediaRules.problems(INSTAGRAM, "feed", FIELD, image("jpeg", 1, 1080, 566)))
                .isEmpty();
        assertThat(MediaRules.problems(INSTAGRAM, "feed", FIELD, image("jpeg", 1, 3024, 4032)))
                .extracting(FieldError::code)
                .containsExactly("aspect_ratio_out_of_range");
    }

    @Test
    void aNinetySecondVideoIsTooLongForAnInstagramStory() {
        assertThat(MediaRules.problems(
                        INSTAGRAM, "story", FIELD, video("mp4", 20_000_000, 1080, 1920, Duration.ofSeconds(90))))
                .containsExactly(new FieldError(
                        FIELD,
                        "video_too_long",
                        "the video is 90 s long; Instagram story videos must be at most 60 s."));
    }

    @Test
    void aVerticalTwoMinuteVideoIsFineForYouTubeAndBecomesAShort() {
        MediaFacts vertical = video("mp4", 80_000_000, 1080, 1920, Duration.ofMinutes(2));
        assertThat(MediaRules.problems(YOUTUBE, null, FIELD, vertical)).isEmpty();
        assertThat(MediaRules.youTubeShort(vertical)).isTrue();
        assertThat(MediaRules.youTubeShort(video("mp4", 1, 1920, 1080, Duration.ofMinutes(2))))
                .as("landscape")
                .isFalse();
        assertThat(MediaRules.youTubeShort(video("mp4", 1, 1080, 1080, Duration.ofMinutes(4))))
                .as("longer than 3 minutes")
                .isFalse();
    }

    @Test
    void aPngIsNotAFormatInstagramTakes() {
        assertThat(MediaRules.problems(INSTAGRAM, "feed", FIELD, image("png", 1, 1080, 1080)))
                .containsExactly(new FieldError(
                        FIELD, "media_format_unsupported", "the image is PNG; Instagram feed images must be JPEG."));
    }

    @Test
    void aFileLargerThanThePlatformTakesSaysBothSizes() {
        assertThat(MediaRules.problems(INSTAGRAM, "carousel", FIELD, image("jpeg", 9L * 1024 * 1024, 1080, 1080)))
                .containsExactly(new FieldError(
                        FIELD,
                        "media_too_large",
                        "the image is 9 MB (9437184 bytes); Instagram carousel images must be at most 8 MB."));
    }

    @Test
    void aOneSecondClipIsTooShortForAReel() {
        assertThat(MediaRules.problems(
                        INSTAGRAM, "reel", FIELD, video("mov", 1_000_000, 1080, 1920, Duration.ofMillis(1500))))
                .extracting(FieldError::code, FieldError::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "video_too_short", "the video is 1.5 s long; Instagram reels must be at least 3 s."));
    }

    @Test
    void facebookReelsMustBeNineToSixteenAndAtLeast540x960() {
        assertThat(MediaRules.problems(FACEBOOK, "reel", FIELD, video("mp4", 1, 1080, 1920, Duration.ofSeconds(30))))
                .isEmpty();
        assertThat(MediaRules.problems(FACEBOOK, "reel", FIELD, video("mp4", 1, 360, 640, Duration.ofSeconds(30))))
                .containsExactly(new FieldError(
                        FIELD,
                        "dimensions_out_of_range",
                        "the video is 360x640; Facebook reels must be at least 540x960."));
        assertThat(MediaRules.problems(FACEBOOK, "reel", FIELD, video("mp4", 1, 1920, 1080, Duration.ofSeconds(30))))
                .extracting(FieldError::message)
                .containsExactly("the video is 16:9 (1920x1080); Facebook reels must be 9:16.");
    }

    @Test
    void linkedInCountsPixelsAndPinterestAndTikTokBoundTheirVideos() {
        assertThat(MediaRules.problems(LINKEDIN, null, FIELD, image("png", 1, 8000, 6000)))
                .extracting(FieldError::message)
                .containsExactly("the image is 8000x6000; LinkedIn images must be at most 36,152,320 pixels in all.");
        assertThat(MediaRules.problems(PINTEREST, null, FIELD, video("mp4", 1, 1080, 1920, Duration.ofSeconds(2))))
                .extracting(FieldError::code)
                .containsExactly("video_too_short");
        assertThat(MediaRules.problems(TIKTOK, null, FIELD, video("mp4", 1, 240, 426, Duration.ofSeconds(20))))
                .extracting(FieldError::code)
                .containsExactly("dimensions_out_of_range");
    }

    @Test
    void aLinkedInDocumentIsAPdfOrOfficeFileOfAtMost100Megabytes() {
        assertThat(MediaRules.problems(LINKEDIN, null, FIELD, document("pdf", 5_000_000)))
                .isEmpty();
        assertThat(MediaRules.problems(LINKEDIN, null, FIELD, document("pdf", 101L * 1024 * 1024)))
                .containsExactly(new FieldError(
                        FIELD,
                        "media_too_large",
                        "the document is 101 MB (105906176 bytes); LinkedIn documents must be at most 100 MB."));
        assertThat(MediaRules.problems(LINKEDIN, null, FIELD, document("rtf", 1)))
                .extracting(FieldError::code)
                .containsExactly("media_format_unsupported");
    }

    private static MediaFacts document(String container, long bytes) {
        return new MediaFacts("application/pdf", bytes, MediaFacts.Kind.DOCUMENT, container, null, null, null, null);
    }

    @Test
    void whatTheProbeCouldNotMeasureIsNotChecked() {
        MediaFacts unknown = new MediaFacts("video/mp4", null, MediaFacts.Kind.VIDEO, null, null, null, null, null);
        for (Platform platform : Platform.values()) {
            assertThat(MediaRules.problems(platform, null, FIELD, unknown)).isEmpty();
        }
        assertThat(MediaRules.problems(INSTAGRAM, null, FIELD, null)).isEmpty();
    }

    @Test
    void everyPlatformHasItsFeedRowsAndEveryRowNamesItsFormats() {
        Set<Platform> withVideo = MediaLimits.all().stream()
                .filter(limit -> limit.format().equals(MediaLimits.FEED) && limit.kind() == MediaFacts.Kind.VIDEO)
                .map(MediaLimit::platform)
                .collect(Collectors.toSet());
        assertThat(withVideo).isEqualTo(EnumSet.allOf(Platform.class));
        assertThat(MediaLimits.all())
                .allSatisfy(limit -> assertThat(limit.containers()).isNotEmpty());
        assertThat(MediaLimits.find(YOUTUBE, null, MediaFacts.Kind.IMAGE)).isEmpty();
    }
}
