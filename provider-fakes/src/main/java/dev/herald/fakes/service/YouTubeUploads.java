package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.ReceivedBytes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * YouTube's resumable video upload ({@code POST} then {@code PUT /upload/youtube/v3/videos}): the open sessions, the
 * bytes each received, and the video resource answered when the last byte arrives.
 */
final class YouTubeUploads {
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (?:(\\d+)-(\\d+)|\\*)/(\\d+)$");
    private final Map<String, UploadSession> uploads = new ConcurrentHashMap<>();
    private final YouTubeFake fake;

    YouTubeUploads(YouTubeFake fake) {
        this.fake = fake;
    }

    /** An open resumable upload: what the video will be, and how many of its bytes arrived (in which requests). */
    private static final class UploadSession {
        final String id;
        final String channelId;
        final JsonNode metadata;
        final long size;
        final String contentType;
        final List<ReceivedBytes> parts = new ArrayList<>();
        long received;
        ObjectNode video;

        UploadSession(String id, String channelId, JsonNode metadata, long size, String contentType) {
            this.id = id;
            this.channelId = channelId;
            this.metadata = metadata;
            this.size = size;
            this.contentType = contentType;
        }
    }

    FakeResponse startUpload(FakeRequest request) {
        if (!"resumable".equals(request.queryParameter("uploadType"))) {
            return fake.apiError(400, "invalidUploadType", "INVALID_ARGUMENT", "Only uploadType=resumable is faked.");
        }
        JsonNode video = fake.jsonBody(request);
        String part = request.queryParameter("part");
        if (video == null || part == null || !Set.of(part.split(",")).containsAll(Set.of("snippet", "status"))) {
            return fake.apiError(
                    400, "invalidPart", "INVALID_ARGUMENT", "part=snippet,status and the video's JSON are required.");
        }
        if (video.path("snippet").path("title").asText("").isBlank()) {
            return fake.apiError(
                    400,
                    "invalidTitle",
                    "INVALID_ARGUMENT",
                    "The request metadata specifies an invalid or empty video title.");
        }
        String length = request.header("x-upload-content-length");
        String type = request.header("x-upload-content-type");
        if (length == null
                || !length.matches("\\d{1,12}")
                || Long.parseLong(length) == 0
                || type == null
                || !(type.startsWith("video/") || type.equals("application/octet-stream"))) {
            return fake.apiError(
                    400,
                    "badContent",
                    "INVALID_ARGUMENT",
                    "X-Upload-Content-Length (bytes) and X-Upload-Content-Type (video/*) are required.");
        }
        UploadSession session = new UploadSession(
                FakeIds.alphanumeric(32), YouTubeFake.CHANNEL_ID, video, Long.parseLong(length), type);
        uploads.put(session.id, session);
        String host = request.header("host");
        return FakeResponse.empty(200)
                .withHeader(
                        "Location",
                        "http://" + host + "/youtube" + YouTubeFake.UPLOADS + "?uploadType=resumable&upload_id="
                                + session.id);
    }

    FakeResponse continueUpload(FakeRequest request) {
        UploadSession session = uploads.get(String.valueOf(request.queryParameter("upload_id")));
        if (session == null) {
            return fake.apiError(
                    404, "notFound", "NOT_FOUND", "No upload session " + request.queryParameter("upload_id") + ".");
        }
        long arrived = request.upload() == null ? 0 : request.upload().size();
        String contentRange = request.header("content-range");
        Matcher range = CONTENT_RANGE.matcher(contentRange == null ? "" : contentRange);
        long from = 0;
        if (contentRange != null) {
            if (!range.matches() || Long.parseLong(range.group(3)) != session.size) {
                return fake.apiError(
                        400,
                        "badContent",
                        "INVALID_ARGUMENT",
                        "Content-Range " + contentRange + " does not fit the upload of " + session.size + " bytes.");
            }
            if (range.group(1) == null) {
                // Where does the session stand?
                return session.video != null ? fake.json(200, session.video) : incomplete(session);
            }
            from = Long.parseLong(range.group(1));
            if (Long.parseLong(range.group(2)) - from + 1 != arrived) {
                return fake.apiError(
                        400,
                        "badContent",
                        "INVALID_ARGUMENT",
                        "Content-Range " + contentRange + " announces other than the " + arrived + " bytes sent.");
            }
        }
        if (session.video != null) {
            return fake.json(200, session.video);
        }
        if (from != session.received || session.received + arrived > session.size) {
            return fake.apiError(
                    400,
                    "badContent",
                    "INVALID_ARGUMENT",
                    "The upload continues at byte " + session.received + " of " + session.size + ", not " + from + ".");
        }
        session.received += arrived;
        if (arrived > 0) {
            session.parts.add(request.upload());
        }
        return session.received < session.size ? incomplete(session) : fake.json(200, finish(session));
    }

    /** 308 Resume Incomplete, with the bytes the session holds (none: no Range header, as Google answers). */
    private static FakeResponse incomplete(UploadSession session) {
        FakeResponse answer = FakeResponse.empty(308);
        return session.received == 0 ? answer : answer.withHeader("Range", "bytes=0-" + (session.received - 1));
    }

    /** The video resource YouTube answers; the published record adds what it received, for tests. */
    private ObjectNode finish(UploadSession session) {
        ObjectNode video = fake.object()
                .put("kind", "youtube#video")
                .put("etag", FakeIds.alphanumeric(27))
                .put("id", FakeIds.token("", 11));
        ObjectNode snippet = video.putObject("snippet")
                .put(
                        "publishedAt",
                        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()) // seconds even at :00
                .put("channelId", session.channelId)
                .put("title", session.metadata.path("snippet").path("title").asText())
                .put(
                        "description",
                        session.metadata.path("snippet").path("description").asText(""))
                .put(
                        "categoryId",
                        session.metadata.path("snippet").path("categoryId").asText("22"));
        snippet.put("channelTitle", YouTubeFake.CHANNEL_TITLE);
        JsonNode asked = session.metadata.path("status");
        video.putObject("status")
                .put("uploadStatus", "uploaded")
                .put("privacyStatus", asked.path("privacyStatus").asText("public"))
                .put("license", "youtube")
                .put("embeddable", true)
                .put("publicStatsViewable", true)
                .put("madeForKids", asked.path("selfDeclaredMadeForKids").asBoolean(false))
                .put(
                        "selfDeclaredMadeForKids",
                        asked.path("selfDeclaredMadeForKids").asBoolean(false));
        session.video = video;
        ObjectNode received = video.deepCopy()
                .put("upload_id", session.id)
                .put("content_type", session.contentType)
                .put("bytes", session.received);
        ArrayNode parts = received.putArray("parts");
        session.parts.forEach(
                part -> parts.addObject().put("bytes", part.size()).put("sha256", part.sha256()));
        fake.publish(received);
        return video;
    }

    void reset() {
        uploads.clear();
    }
}
