package dev.herald.posts.service.media;

import static dev.herald.common.wire.Platform.FACEBOOK;
import static dev.herald.common.wire.Platform.INSTAGRAM;
import static dev.herald.common.wire.Platform.LINKEDIN;
import static dev.herald.common.wire.Platform.PINTEREST;
import static dev.herald.common.wire.Platform.TIKTOK;
import static dev.herald.common.wire.Platform.YOUTUBE;
import static dev.herald.posts.service.media.MediaFacts.Kind.DOCUMENT;
import static dev.herald.posts.service.media.MediaFacts.Kind.IMAGE;
import static dev.herald.posts.service.media.MediaFacts.Kind.VIDEO;
import static dev.herald.posts.service.media.MediaLimit.AspectRange.between;
import static dev.herald.posts.service.media.MediaLimit.AspectRange.exactly;

import dev.herald.common.wire.Platform;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What each platform takes as a media item, per format and kind, from its own documentation: the one place that says
 * which files a platform refuses, read by {@link MediaRules}. Formats are {@code platform_options.<platform>.format}
 * ({@link #FEED} where a platform has no formats), and {@link #CAROUSEL} for each item of a multi-item Instagram post.
 * A platform's format without a row here (an image for YouTube) is another rule's business (the types and counts per
 * platform). Sizes are in binary megabytes (1 MB = 1,048,576 bytes), the lenient reading of "MB".
 */
public final class MediaLimits {
    public static final String FEED = "feed";
    public static final String CAROUSEL = "carousel";
    public static final String REEL = "reel";
    public static final String STORY = "story";

    private static final Set<String> JPEG = Set.of("jpeg");
    private static final Set<String> MP4_MOV = Set.of("mp4", "mov");

    private static final Set<String> FACEBOOK_PHOTOS = Set.of("jpeg", "png", "gif", "tiff", "bmp", "heif", "webp");
    private static final Set<String> PINTEREST_IMAGES = Set.of("bmp", "jpeg", "png", "tiff", "gif", "webp");
    private static final Set<String> YOUTUBE_FORMATS = Set.of("mp4", "mov", "avi", "webm", "wmv", "flv", "3gp", "mpeg");

    private static final List<MediaLimit> LIMITS = Stream.of(
                    // Instagram:
                    // developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
                    // (image, reel and story specifications; JPEG is the only image format). Carousel videos follow
                    // the feed video specification (3 to 60 s, at most 100 MB, 4:5 to 16:9), as restated by
                    // ayrshare.com/docs/media-guidelines/instagram and docs.contentstudio.io/article/830.
                    MediaLimit.of(INSTAGRAM, FEED, IMAGE, "Instagram feed images", JPEG)
                            .maxMegabytes(8)
                            .aspect(between(4, 5, 1.91, 1)),
                    MediaLimit.of(INSTAGRAM, FEED, VIDEO, "Instagram feed videos (published as reels)", MP4_MOV)
                            .maxMegabytes(300)
                            .seconds(3, 15 * 60)
                            .aspect(between(0.01, 1, 10, 1)),
                    MediaLimit.of(INSTAGRAM, CAROUSEL, IMAGE, "Instagram carousel images", JPEG)
                            .maxMegabytes(8)
                            .aspect(between(4, 5, 1.91, 1)),
                    MediaLimit.of(INSTAGRAM, CAROUSEL, VIDEO, "Instagram carousel videos", MP4_MOV)
                            .maxMegabytes(100)
                            .seconds(3, 60)
                            .aspect(between(4, 5, 16, 9)),
                    MediaLimit.of(INSTAGRAM, REEL, VIDEO, "Instagram reels", MP4_MOV)
                            .maxMegabytes(300)
                            .seconds(3, 15 * 60)
                            .aspect(between(0.01, 1, 10, 1)),
                    MediaLimit.of(INSTAGRAM, STORY, IMAGE, "Instagram story images", JPEG)
                            .maxMegabytes(8)
                            .aspect(between(0.1, 1, 10, 1)),
                    MediaLimit.of(INSTAGRAM, STORY, VIDEO, "Instagram story videos", MP4_MOV)
                            .maxMegabytes(100)
                            .seconds(3, 60)
                            .aspect(between(0.1, 1, 10, 1)),
                    // Facebook: developers.facebook.com/docs/graph-api/reference/page/photos (photos under 4 MB:
                    // JPEG, PNG, GIF, TIFF, HEIF, WebP, BMP),
                    // developers.facebook.com/docs/video-api/guides/reels-publishing (reels: 3 to 90 s, 9:16, at
                    // least 540x960), developers.facebook.com/docs/page-stories-api (stories: video 3 to 60 s, at
                    // least 540x960); Page videos up to 10 GB and 240 minutes (Video API), as restated by
                    // ayrshare.com/docs/media-guidelines/facebook_pages.
                    MediaLimit.of(FACEBOOK, FEED, IMAGE, "Facebook photos", FACEBOOK_PHOTOS)
                            .maxMegabytes(4),
                    MediaLimit.of(FACEBOOK, FEED, VIDEO, "Facebook videos", Set.of("mp4", "mov", "avi", "webm"))
                            .maxMegabytes(10 * 1024)
                            .seconds(0, 240 * 60),
                    MediaLimit.of(FACEBOOK, REEL, VIDEO, "Facebook reels", MP4_MOV)
                            .maxMegabytes(1024)
                            .seconds(3, 90)
                            .aspect(exactly(9, 16))
                            .minSize(540, 960),
                    MediaLimit.of(FACEBOOK, STORY, IMAGE, "Facebook story photos", FACEBOOK_PHOTOS)
                            .maxMegabytes(4),
                    MediaLimit.of(FACEBOOK, STORY, VIDEO, "Facebook story videos", MP4_MOV)
                            .maxMegabytes(1024)
                            .seconds(3, 60)
                            .minSize(540, 960),
                    // TikTok: developers.tiktok.com/doc/content-posting-api-media-transfer-guide (video
                    // restrictions: MP4, WebM, MOV, at most 4 GB, 360 to 4096 px a side, at most 10 minutes; image
                    // restrictions: JPEG or WebP, at most 20 MB); the 3 s minimum as restated by
                    // ayrshare.com/docs/media-guidelines/tiktok. A creator's own maximum
                    // (max_video_post_duration_sec) may be lower: that is the account's publishing options' rule.
                    MediaLimit.of(TIKTOK, FEED, VIDEO, "TikTok videos", Set.of("mp4", "webm", "mov"))
                            .maxMegabytes(4 * 1024)
                            .seconds(3, 10 * 60)
                            .minSize(360, 360)
                            .maxSize(4096, 4096),
                    MediaLimit.of(TIKTOK, FEED, IMAGE, "TikTok photos", Set.of("jpeg", "webp"))
                            .maxMegabytes(20),
                    // YouTube: support.google.com/youtube/answer/71673 (uploads up to 256 GB or 12 hours) and
                    // support.google.com/youtube/troubleshooter/2888402 (file formats). A square or vertical video
                    // of at most 3 minutes becomes a Short (YouTube decides; see MediaRules.youTubeShort):
                    // information, not a problem.
                    MediaLimit.of(YOUTUBE, FEED, VIDEO, "YouTube videos", YOUTUBE_FORMATS)
                            .maxMegabytes(256 * 1024)
                            .seconds(0, 12 * 3600),
                    // Pinterest: developers.pinterest.com/docs/content/content-creation (image Pins: BMP, JPEG,
                    // PNG, TIFF, GIF, WebP up to 20 MB; video Pins: MP4, MOV or M4V up to 2 GB, 4 s to 15 min,
                    // between 1:2 and 1.91:1), as restated by ayrshare.com/docs/media-guidelines/pinterest and
                    // help.swat.io (Pinterest videos: format requirements).
                    MediaLimit.of(PINTEREST, FEED, IMAGE, "Pinterest image Pins", PINTEREST_IMAGES)
                            .maxMegabytes(20),
                    MediaLimit.of(PINTEREST, FEED, VIDEO, "Pinterest video Pins", MP4_MOV)
                            .maxMegabytes(2 * 1024)
                            .seconds(4, 15 * 60)
                            .aspect(between(1, 2, 1.91, 1)),
                    // LinkedIn: learn.microsoft.com/linkedin/marketing/community-management/shares/images-api (JPG,
                    // GIF, PNG, under 36,152,320 pixels) and .../shares/videos-api (MP4, 3 s to 30 min, 75 KB to
                    // 500 MB); the 1:2.4 to 2.4:1 aspect ratio as restated by
                    // ayrshare.com/docs/media-guidelines/linkedin.
                    MediaLimit.of(LINKEDIN, FEED, IMAGE, "LinkedIn images", Set.of("jpeg", "gif", "png"))
                            .maxPixels(36_152_320L),
                    MediaLimit.of(LINKEDIN, FEED, VIDEO, "LinkedIn videos", Set.of("mp4"))
                            .maxMegabytes(500)
                            .seconds(3, 30 * 60)
                            .aspect(between(1, 2.4, 2.4, 1)),
                    // LinkedIn documents: learn.microsoft.com/linkedin/marketing/community-management/shares/
                    // documents-api (PPT, PPTX, DOC, DOCX and PDF, at most 100 MB and 300 pages). The page count
                    // needs the whole file, so it is LinkedIn's to refuse at delivery.
                    MediaLimit.of(
                                    LINKEDIN,
                                    FEED,
                                    DOCUMENT,
                                    "LinkedIn documents",
                                    Set.of("pdf", "ppt", "pptx", "doc", "docx"))
                            .maxMegabytes(100))
            .map(MediaLimit.Builder::limit)
            .toList();

    private MediaLimits() {}

    /** The row for a platform's format and kind; empty when the platform takes no such item in that format. */
    public static Optional<MediaLimit> find(Platform platform, String format, MediaFacts.Kind kind) {
        String wanted = format == null ? FEED : format;
        return LIMITS.stream()
                .filter(limit -> limit.platform() == platform && limit.format().equals(wanted) && limit.kind() == kind)
                .findFirst();
    }

    /** Every row, for tests and documentation. */
    public static List<MediaLimit> all() {
        return LIMITS;
    }
}
