package dev.herald.fakes.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a Page uploads before it publishes: unpublished photos ({@code POST /{page}/photos published=false}) that a
 * multi-photo post attaches ({@code attached_media[i]={"media_fbid"}},
 * https://developers.facebook.com/docs/pages-api/posts) or a photo story publishes ({@code /{page}/photo_stories}), and
 * the video sessions of Reels ({@code /{page}/video_reels}) and video stories ({@code /{page}/video_stories}):
 * {@code upload_phase=start}, the hosted-file upload at {@code /video-upload/{version}/{video_id}} ({@code file_url}
 * header), then {@code upload_phase=finish} (a Reel with {@code video_state=PUBLISHED}). Each photo and video is used
 * once; what is not uploaded, or already used, is refused.
 */
final class FacebookUploads {
    private final FacebookGraphFake fake;
    private final Map<String, ObjectNode> photos = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> videos = new ConcurrentHashMap<>();

    FacebookUploads(FacebookGraphFake fake) {
        this.fake = fake;
    }

    /** An unpublished photo: {@code {"id"}}; nothing shows on the Page until it is attached or made a story. */
    FakeResponse unpublishedPhoto(String page, String url) {
        String id = FakeIds.digits(16);
        photos.put(
                id,
                fake.object().put("id", id).put("page", page).put("url", url).put("used", false));
        return fake.json(200, fake.object().put("id", id));
    }

    /**
     * The photos a feed post attaches, in order ({@code attached_media[0]}, {@code [1]}, ...), marked used; or the
     * refusal when one is not an unpublished photo of the Page, or already used. Null when the form attaches none.
     */
    Attached attach(Map<String, String> form, String page) {
        ArrayNode attachments = fake.object().putArray("attachments");
        for (int i = 0; form.containsKey("attached_media[" + i + "]"); i++) {
            String fbid = json(form.get("attached_media[" + i + "]"))
                    .path("media_fbid")
                    .asText(null);
            ObjectNode photo = fbid == null ? null : photos.get(fbid);
            if (photo == null
                    || !page.equals(photo.path("page").asText())
                    || photo.path("used").asBoolean()) {
                return new Attached(
                        null,
                        invalid("(#100) attached_media[" + i + "] must be an unpublished photo of this Page not yet"
                                + " published: " + fbid));
            }
            attachments
                    .addObject()
                    .put("photo_id", fbid)
                    .put("url", photo.path("url").asText());
        }
        if (attachments.isEmpty()) {
            return null;
        }
        attachments.forEach(
                attached -> photos.get(attached.path("photo_id").asText()).put("used", true));
        return new Attached(attachments, null);
    }

    /** A photo story from an unpublished photo of the Page: {@code {"success", "post_id"}}. */
    FakeResponse photoStory(String page, String photoId) {
        ObjectNode photo = photoId == null ? null : photos.get(photoId);
        if (photo == null
                || !page.equals(photo.path("page").asText())
                || photo.path("used").asBoolean()) {
            return invalid("(#100) photo_id must be an unpublished photo of this Page: " + photoId);
        }
        photo.put("used", true);
        return story(page, photoId, "photo", photo.path("url").asText());
    }

    /** A phase of a Reel's ({@code video_reels}) or a video story's ({@code video_stories}) session. */
    FakeResponse videoSession(FakeRequest request, String page, String edge) {
        Map<String, String> form = request.form();
        String phase = form.get("upload_phase");
        if ("start".equals(phase)) {
            String videoId = FakeIds.digits(16);
            videos.put(
                    videoId, fake.object().put("id", videoId).put("page", page).put("edge", edge));
            return fake.json(
                    200,
                    fake.object()
                            .put("video_id", videoId)
                            .put("upload_url", "https://rupload.facebook.com/video-upload/v24.0/" + videoId));
        }
        if (!"finish".equals(phase)) {
            return invalid("(#100) upload_phase must be one of start, finish");
        }
        String videoId = form.get("video_id");
        ObjectNode video = videoId == null ? null : videos.get(videoId);
        if (video == null
                || !page.equals(video.path("page").asText())
                || !edge.equals(video.path("edge").asText())) {
            return invalid("(#100) video_id is not an upload session of this Page's " + edge + ": " + videoId);
        }
        if (!video.hasNonNull("file_url") || video.path("used").asBoolean()) {
            return invalid("(#100) The video of session " + videoId + " was not uploaded, or is already published");
        }
        video.put("used", true);
        if ("video_stories".equals(edge)) {
            return story(page, videoId, "video", video.path("file_url").asText());
        }
        if (!"PUBLISHED".equals(form.get("video_state"))) {
            // A draft or a scheduled Reel is not published: the fake keeps to what Herald sends.
            return invalid("(#100) The fake publishes Reels with video_state=PUBLISHED only");
        }
        ObjectNode reel = fake.object()
                .put("id", videoId)
                .put("created_time", now())
                .put("edge", "video_reels")
                .put("file_url", video.path("file_url").asText());
        if (form.get("description") != null) {
            reel.put("description", form.get("description"));
        }
        fake.publish(reel);
        return fake.json(200, fake.object().put("success", true));
    }

    /** The upload host taking a session's video by its URL ({@code file_url} header): {@code {"success": true}}. */
    FakeResponse hostedUpload(FakeRequest request, String page, String videoId) {
        ObjectNode video = videos.get(videoId);
        String fileUrl = request.header("file_url");
        if (video == null || !page.equals(video.path("page").asText())) {
            return invalid("(#100) No upload session " + videoId + " for this Page");
        }
        if (fileUrl == null || fileUrl.isBlank()) {
            return invalid("(#100) file_url or a file body is required");
        }
        video.put("file_url", fileUrl);
        return fake.json(200, fake.object().put("success", true));
    }

    private FakeResponse story(String page, String mediaId, String mediaType, String url) {
        String postId = FakeIds.digits(16);
        fake.publish(fake.object()
                .put("id", postId)
                .put("post_id", postId)
                .put("media_id", mediaId)
                .put("media_type", mediaType)
                .put("status", "PUBLISHED")
                .put("creation_time", now())
                .put("created_time", now())
                .put("edge", "stories")
                .put("media_url", url)
                .put("url", "https://www.facebook.com/stories/" + page + "/" + postId + "/"));
        return fake.json(200, fake.object().put("success", true).put("post_id", postId));
    }

    /** A post's {@code attachments} field: a multi-photo post shows as an album of its photos, in order. */
    ObjectNode attachmentsOf(JsonNode item) {
        ObjectNode attachments = fake.object();
        ArrayNode data = attachments.putArray("data");
        if (item.has("attached_photos")) {
            ArrayNode album = data.addObject()
                    .put("type", "album")
                    .putObject("subattachments")
                    .putArray("data");
            item.get("attached_photos").forEach(photo -> {
                ObjectNode shown = album.addObject().put("type", "photo");
                shown.putObject("target").put("id", photo.path("photo_id").asText());
                shown.putObject("media")
                        .putObject("image")
                        .put("src", photo.path("url").asText());
            });
        }
        return attachments;
    }

    /** A JSON form value ({@code attached_media[i]}); an empty object when it is not JSON. */
    private JsonNode json(String text) {
        try {
            return text == null ? fake.object() : fake.mapper.readTree(text);
        } catch (JsonProcessingException e) {
            return fake.object();
        }
    }

    private FakeResponse invalid(String message) {
        return fake.json(400, GraphErrorShapes.error(fake.object(), "OAuthException", 100, null, message, false));
    }

    private static String now() {
        return OffsetDateTime.now(ZoneOffset.UTC).format(FacebookGraphFake.GRAPH_TIME);
    }

    void reset() {
        photos.clear();
        videos.clear();
    }

    /** Photos attached to a post, or the refusal. */
    record Attached(ArrayNode attachments, FakeResponse refusal) {}
}
