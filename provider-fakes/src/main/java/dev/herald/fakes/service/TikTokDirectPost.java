package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TikTok's Content Posting API for a Direct Post: {@code /v2/post/publish/video/init/}, the chunked upload to its
 * upload URL, and {@code /v2/post/publish/status/fetch/} (of videos and of {@link TikTokPhotoInit}'s photo posts); the
 * posts in progress and their uploads.
 */
final class TikTokDirectPost {
    private static final long MIN_CHUNK = 5L * 1024 * 1024;
    private static final long MAX_CHUNK = 64L * 1024 * 1024;
    private static final long MAX_LAST_CHUNK = 128L * 1024 * 1024;
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d+)-(\\d+)/(\\d+)$");
    private static final Set<String> VIDEO_TYPES = Set.of("video/mp4", "video/quicktime", "video/webm");
    private final Map<String, Post> posts = new ConcurrentHashMap<>();
    private final Map<String, Post> uploads = new ConcurrentHashMap<>();
    private final TikTokFake fake;

    TikTokDirectPost(TikTokFake fake) {
        this.fake = fake;
    }

    /** One Direct Post: what init was given and what of the file has arrived. */
    private static final class Post {
        final String publishId;
        final String grantId;
        final String uploadToken;
        final JsonNode postInfo;
        /** A photo post's {@code photo_images} (TikTok pulls them), null for a video. */
        final JsonNode photos;

        final long size;
        final long chunkSize;
        final long chunks;
        final boolean fails;
        long received;
        long chunksReceived;
        int fetchesSinceComplete;
        String postId;

        Post(
                String publishId,
                String grantId,
                String uploadToken,
                JsonNode postInfo,
                JsonNode photos,
                long size,
                long chunkSize,
                long chunks,
                boolean fails) {
            this.publishId = publishId;
            this.grantId = grantId;
            this.uploadToken = uploadToken;
            this.postInfo = postInfo;
            this.photos = photos;
            this.size = size;
            this.chunkSize = chunkSize;
            this.chunks = chunks;
            this.fails = fails;
        }
    }

    /** A Direct Post of a video Herald uploads itself; the chunk arithmetic as TikTok's media transfer guide states it. */
    FakeResponse init(FakeRequest request, IssuedGrant grant) {
        JsonNode body = fake.jsonBody(request);
        if (body == null) {
            return fake.invalid("The request body must be JSON.");
        }
        JsonNode postInfo = body.path("post_info");
        FakeResponse privacy = fake.privacyMismatch(postInfo);
        if (privacy != null) {
            return privacy;
        }
        if (postInfo.path("title")
                        .asText("")
                        .codePointCount(0, postInfo.path("title").asText("").length())
                > 2200) {
            return fake.invalid("post_info.title is longer than 2200 characters.");
        }
        JsonNode source = body.path("source_info");
        if ("PULL_FROM_URL".equals(source.path("source").asText())) {
            return fake.envelope(
                    403, null, "url_ownership_unverified", "The fake TikTok app has verified no URL prefix or domain.");
        }
        if (!"FILE_UPLOAD".equals(source.path("source").asText())) {
            return fake.invalid("source_info.source must be FILE_UPLOAD or PULL_FROM_URL.");
        }
        long size = source.path("video_size").asLong(0);
        long chunkSize = source.path("chunk_size").asLong(0);
        long chunks = source.path("total_chunk_count").asLong(0);
        String wrong = chunkProblem(size, chunkSize, chunks);
        if (wrong != null) {
            return fake.invalid(wrong);
        }
        String publishId = "v_pub_file~v2-1." + FakeIds.digits(19);
        String uploadId = FakeIds.digits(19);
        boolean fails = request.failure() != null && request.failure().getKind() == FailureKind.PROCESSING_ERROR;
        Post post = new Post(
                publishId, grant.grantId(), FakeIds.alphanumeric(32), postInfo, null, size, chunkSize, chunks, fails);
        posts.put(publishId, post);
        uploads.put(uploadId, post);
        String host = request.header("host") == null ? "127.0.0.1:8190" : request.header("host");
        ObjectNode data = fake.object()
                .put("publish_id", publishId)
                .put(
                        "upload_url",
                        "http://" + host + "/tiktok/upload/?upload_id=" + uploadId + "&upload_token="
                                + post.uploadToken);
        return fake.envelope(200, data, "ok", "");
    }

    /**
     * A photo post TikTok pulls from {@code photos} ({@link TikTokPhotoInit} checked the request): its publish id, its
     * status like a video's once its upload is whole, which a pulled post is from the start.
     */
    String startPulled(IssuedGrant grant, JsonNode postInfo, JsonNode photos, boolean fails) {
        String publishId = "p_pub_url~v2." + FakeIds.digits(19);
        posts.put(publishId, new Post(publishId, grant.grantId(), "", postInfo, photos, 0, 0, 0, fails));
        return publishId;
    }

    /** Null when the sizes follow TikTok's rules, else what is wrong with them. */
    private static String chunkProblem(long size, long chunkSize, long chunks) {
        if (size <= 0 || chunkSize <= 0 || chunks <= 0) {
            return "source_info.video_size, chunk_size and total_chunk_count must be positive.";
        }
        if (size < MIN_CHUNK && (chunkSize != size || chunks != 1)) {
            return "A video under 5 MB goes whole: chunk_size must be video_size and total_chunk_count 1.";
        }
        if (size >= MIN_CHUNK && (chunkSize < MIN_CHUNK || chunkSize > MAX_CHUNK)) {
            return "chunk_size must be between 5 MB and 64 MB.";
        }
        if (chunks != size / chunkSize || chunks > 1000) {
            return "total_chunk_count must be video_size / chunk_size rounded down (" + size / chunkSize
                    + "), at most 1000.";
        }
        if (size > MAX_CHUNK && chunks < 2) {
            return "A video over 64 MB goes in several chunks.";
        }
        if (size - (chunks - 1) * chunkSize > MAX_LAST_CHUNK) {
            return "The last chunk would be over 128 MB.";
        }
        return null;
    }

    /** One chunk at the upload URL: in order, as long as its Content-Range says and the init announced. */
    FakeResponse chunk(FakeRequest request) {
        Post post = uploads.get(String.valueOf(request.queryParameter("upload_id")));
        if (post == null || !post.uploadToken.equals(request.queryParameter("upload_token"))) {
            return fake.envelope(404, null, "invalid_params", "No upload at this upload_id and upload_token.");
        }
        String type = request.header("content-type");
        if (type == null || !VIDEO_TYPES.contains(type.split(";")[0].strip().toLowerCase())) {
            return fake.envelope(
                    400, null, "invalid_file_upload", "Content-Type must be video/mp4, video/quicktime or video/webm.");
        }
        Matcher range = CONTENT_RANGE.matcher(String.valueOf(request.header("content-range")));
        long bytes = request.upload() == null ? 0 : request.upload().size();
        synchronized (post) {
            if (!range.matches()) {
                return fake.envelope(
                        400, null, "invalid_file_upload", "Content-Range must be 'bytes {first}-{last}/{total}'.");
            }
            long first = Long.parseLong(range.group(1));
            long last = Long.parseLong(range.group(2));
            boolean lastChunk = post.chunksReceived == post.chunks - 1;
            long expectedLast = lastChunk ? post.size - 1 : first + post.chunkSize - 1;
            if (Long.parseLong(range.group(3)) != post.size
                    || first != post.received
                    || last != expectedLast
                    || bytes != last - first + 1) {
                return fake.envelope(
                        416,
                        null,
                        "invalid_file_upload",
                        "Expected bytes " + post.received + "-" + expectedLast + "/"
                                + post.size + " (" + (expectedLast - post.received + 1) + " bytes), got "
                                + request.header("content-range")
                                + " with " + bytes + " bytes.");
            }
            post.received += bytes;
            post.chunksReceived++;
            return FakeResponse.empty(lastChunk ? 201 : 206);
        }
    }

    /** A complete upload is still processing at its first status fetch, and published (or failed) from the next. */
    FakeResponse status(FakeRequest request, IssuedGrant grant) {
        JsonNode body = fake.jsonBody(request);
        Post post = body == null ? null : posts.get(body.path("publish_id").asText(""));
        if (post == null) {
            return fake.envelope(400, null, "invalid_publish_id", "The publish_id does not exist.");
        }
        if (!post.grantId.equals(grant.grantId())) {
            return fake.envelope(
                    400,
                    null,
                    "token_not_authorized_for_specified_publish_id",
                    "The access_token does not have authorization to the publish_id.");
        }
        ObjectNode data = fake.object();
        synchronized (post) {
            if (post.photos == null) {
                data.put("uploaded_bytes", post.received);
            }
            if (post.received < post.size || post.fetchesSinceComplete++ == 0) {
                data.put("status", post.photos == null ? "PROCESSING_UPLOAD" : "PROCESSING_DOWNLOAD");
            } else if (post.fails) {
                data.put("status", "FAILED").put("fail_reason", "file_format_check_failed");
            } else {
                if (post.postId == null) {
                    post.postId = FakeIds.digits(19);
                    ObjectNode item = fake.object()
                            .put("id", post.postId)
                            .put("publish_id", post.publishId)
                            .put("create_time", Instant.now().getEpochSecond())
                            .put("creator_username", TikTokFake.USERNAME);
                    if (post.photos == null) {
                        item.put("video_size", post.size);
                    } else {
                        item.put("media_type", "PHOTO").set("photo_images", post.photos);
                    }
                    item.set("post_info", post.postInfo);
                    fake.publish(item);
                }
                data.put("status", "PUBLISH_COMPLETE");
                var ids = data.putArray("publicaly_available_post_id");
                if ("PUBLIC_TO_EVERYONE"
                        .equals(post.postInfo.path("privacy_level").asText())) {
                    ids.add(new java.math.BigInteger(post.postId));
                }
            }
        }
        return fake.envelope(200, data, "ok", "");
    }

    void reset() {
        posts.clear();
        uploads.clear();
    }
}
