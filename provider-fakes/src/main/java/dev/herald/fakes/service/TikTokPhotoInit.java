package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.util.List;

/**
 * TikTok's photo post (https://developers.tiktok.com/doc/content-posting-api-reference-photo-post):
 * {@code POST /v2/post/publish/content/init/} with {@code media_type PHOTO}, {@code post_mode DIRECT_POST} (the
 * inbox's {@code MEDIA_UPLOAD} is not faked), {@code post_info} ({@code title} at most 90 characters,
 * {@code description} at most 4000, a privacy level of the creator's) and {@code source_info} {@code PULL_FROM_URL}
 * with 1 to 35 {@code photo_images} on a URL prefix the app verified ({@link #VERIFIED_URL_PREFIXES}) and a
 * {@code photo_cover_index} among them. Its status is fetched like a video's ({@link TikTokDirectPost#status}):
 * {@code PROCESSING_DOWNLOAD} at the first fetch, {@code PUBLISH_COMPLETE} from the next.
 */
final class TikTokPhotoInit {
    /** The URL prefixes the fake TikTok app verified: TikTok pulls photos only from these. */
    static final List<String> VERIFIED_URL_PREFIXES = List.of("https://media.example.com/");

    static final int MAX_PHOTOS = 35;
    private static final int MAX_TITLE = 90;
    private static final int MAX_DESCRIPTION = 4000;

    private final TikTokFake fake;
    private final TikTokDirectPost directPost;

    TikTokPhotoInit(TikTokFake fake, TikTokDirectPost directPost) {
        this.fake = fake;
        this.directPost = directPost;
    }

    FakeResponse init(FakeRequest request, IssuedGrant grant) {
        JsonNode body = fake.jsonBody(request);
        if (body == null) {
            return fake.invalid("The request body must be JSON.");
        }
        if (!"PHOTO".equals(body.path("media_type").asText())) {
            return fake.invalid("media_type must be PHOTO.");
        }
        if (!"DIRECT_POST".equals(body.path("post_mode").asText())) {
            return fake.invalid("post_mode must be DIRECT_POST (MEDIA_UPLOAD is not faked).");
        }
        JsonNode postInfo = body.path("post_info");
        FakeResponse privacy = fake.privacyMismatch(postInfo);
        if (privacy != null) {
            return privacy;
        }
        if (length(postInfo.path("title")) > MAX_TITLE) {
            return fake.invalid("post_info.title is longer than " + MAX_TITLE + " characters.");
        }
        if (length(postInfo.path("description")) > MAX_DESCRIPTION) {
            return fake.invalid("post_info.description is longer than " + MAX_DESCRIPTION + " characters.");
        }
        JsonNode source = body.path("source_info");
        if (!"PULL_FROM_URL".equals(source.path("source").asText())) {
            return fake.invalid("source_info.source must be PULL_FROM_URL for photos.");
        }
        JsonNode photos = source.path("photo_images");
        if (!photos.isArray() || photos.isEmpty() || photos.size() > MAX_PHOTOS) {
            return fake.invalid("source_info.photo_images must hold 1 to " + MAX_PHOTOS + " photo URLs.");
        }
        for (JsonNode photo : photos) {
            if (!photo.isTextual() || VERIFIED_URL_PREFIXES.stream().noneMatch(photo.asText()::startsWith)) {
                return fake.envelope(
                        403,
                        null,
                        "url_ownership_unverified",
                        "The photo URL " + photo + " is not on a URL prefix or domain the app has verified.");
            }
        }
        JsonNode cover = source.path("photo_cover_index");
        if (!cover.canConvertToInt() || cover.asInt() < 0 || cover.asInt() >= photos.size()) {
            return fake.invalid("source_info.photo_cover_index must be an index of photo_images (0 to "
                    + (photos.size() - 1) + ").");
        }
        boolean fails = request.failure() != null && request.failure().getKind() == FailureKind.PROCESSING_ERROR;
        String publishId = directPost.startPulled(grant, postInfo, photos, fails);
        return fake.envelope(200, fake.object().put("publish_id", publishId), "ok", "");
    }

    private static int length(JsonNode text) {
        String value = text.asText("");
        return value.codePointCount(0, value.length());
    }
}
