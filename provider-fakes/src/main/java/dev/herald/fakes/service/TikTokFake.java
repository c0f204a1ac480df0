package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TikTok below {@code /tiktok}: Login Kit's {@code /v2/auth/authorize/} ({@code client_key}), and on the API host
 * {@code /v2/oauth/token/} (code and refresh; a refresh answers a new refresh token), {@code /v2/oauth/revoke/},
 * {@code /v2/user/info/} and the Content Posting API's Direct Post, as TikTok documents it:
 * {@code creator_info/query/}, {@code video/init/} ({@code FILE_UPLOAD} only, its chunk arithmetic checked as TikTok's
 * media transfer guide states it), the chunk {@code PUT}s to the upload URL it answers
 * ({@code /tiktok/upload/?upload_id=&upload_token=}, in order, each as long as announced) and {@code status/fetch/}: a
 * complete upload is {@code PROCESSING_UPLOAD} at its first status fetch and {@code PUBLISH_COMPLETE} from the next (an
 * armed {@code processing_error} on init makes it {@code FAILED} with {@code file_format_check_failed} instead).
 * Analytics: Get User Info's counts under {@code user.info.stats} and the Display API's {@code POST /v2/video/query/}
 * under {@code video.list}, numbers that depend only on the published videos and the time ({@link #videoCounts}).
 * <p>
 * API answers are TikTok's envelope {@code {"data": {...}, "error": {"code", "message", "log_id"}}}; token
 * endpoint refusals are {@code {"error", "error_description", "log_id"}} with HTTP 200, as TikTok sends them.
 */
@Singleton
public class TikTokFake extends StatefulPlatformFake {
    public static final String OPEN_ID = "-000Fk3OpenIdHeraldFakeCreator01";
    public static final String USERNAME = "heraldfake.dance";
    private static final Duration ACCESS_LIFETIME = Duration.ofHours(24);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(365);
    private static final List<String> PRIVACY_LEVELS =
            List.of("PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY");
    private static final long MIN_CHUNK = 5L * 1024 * 1024;
    private static final long MAX_CHUNK = 64L * 1024 * 1024;
    private static final long MAX_LAST_CHUNK = 128L * 1024 * 1024;
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d+)-(\\d+)/(\\d+)$");
    private static final Set<String> VIDEO_TYPES = Set.of("video/mp4", "video/quicktime", "video/webm");
    private static final Set<String> STATS_FIELDS =
            Set.of("follower_count", "following_count", "likes_count", "video_count");
    private static final List<String> VIDEO_FIELDS = List.of(
            "id", "create_time", "title", "share_url", "like_count", "comment_count", "share_count", "view_count");

    /** One Direct Post: what init was given and what of the file has arrived. */
    private static final class Post {
        final String publishId;
        final String grantId;
        final String uploadToken;
        final JsonNode postInfo;
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
                long size,
                long chunkSize,
                long chunks,
                boolean fails) {
            this.publishId = publishId;
            this.grantId = grantId;
            this.uploadToken = uploadToken;
            this.postInfo = postInfo;
            this.size = size;
            this.chunkSize = chunkSize;
            this.chunks = chunks;
            this.fails = fails;
        }
    }

    private final Map<String, Post> posts = new ConcurrentHashMap<>();
    private final Map<String, Post> uploads = new ConcurrentHashMap<>();

    public TikTokFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public String platform() {
        return "tiktok";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/v2/auth/authorize/?");
    }

    @Override
    public boolean receivesBytes(String method, String path) {
        return "PUT".equals(method) && ("/upload/".equals(path) || "/upload".equals(path));
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_key");
        }
        if (request.is("POST", "/v2/oauth/token/?")) {
            return token(request);
        }
        if (request.is("POST", "/v2/oauth/revoke/?")) {
            Map<String, String> form = request.form();
            try {
                authorization.authenticate(platform(), form.get("client_key"), form.get("client_secret"));
            } catch (OAuthRefusal refusal) {
                return oauthError(refusal);
            }
            IssuedGrant grant = tokens.grant(platform(), form.get("token"));
            if (grant != null) {
                tokens.revokeGrant(grant.grantId());
            }
            return json(200, object());
        }
        if (request.is("PUT", "/upload/?")) {
            // The upload URL carries its own token: no Authorization.
            return chunk(request);
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return envelope(
                    401, null, "access_token_invalid", "The access token is invalid or not found in the request.");
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/v2/user/info/?")) {
            return userInfo(request, grant);
        }
        if (request.is("POST", "/v2/video/query/?")) {
            return grant.scopes().contains("video.list") ? videoQuery(request) : scopeMissing(401);
        }
        if (request.is("POST", "/v2/post/publish/creator_info/query/?")) {
            if (!grant.scopes().contains("video.publish")) {
                return envelope(
                        403,
                        null,
                        "scope_not_authorized",
                        "The user did not authorize the scope required for" + " completing this request.");
            }
            ObjectNode data = object().put("creator_avatar_url", "https://p16-sign.tiktokcdn-us.com/fake/avatar.jpeg")
                    .put("creator_username", USERNAME)
                    .put("creator_nickname", "Herald Fake Dance");
            PRIVACY_LEVELS.forEach(data.putArray("privacy_level_options")::add);
            data.put("comment_disabled", false)
                    .put("duet_disabled", false)
                    .put("stitch_disabled", true)
                    .put("max_video_post_duration_sec", 600);
            return envelope(200, data, "ok", "");
        }
        if (request.is("POST", "/v2/post/publish/video/init/?")) {
            return grant.scopes().contains("video.publish") ? init(request, grant) : scopeMissing();
        }
        if (request.is("POST", "/v2/post/publish/status/fetch/?")) {
            return grant.scopes().contains("video.publish") || grant.scopes().contains("video.upload")
                    ? status(request, grant)
                    : scopeMissing();
        }
        return envelope(
                404,
                null,
                "invalid_params",
                "the fake TikTok has no endpoint " + request.method() + " " + request.path());
    }

    private FakeResponse scopeMissing() {
        return scopeMissing(403);
    }

    private FakeResponse scopeMissing(int status) {
        return envelope(
                status,
                null,
                "scope_not_authorized",
                "The user did not authorize the scope required for completing" + " this request.");
    }

    /**
     * Get User Info: the requested {@code fields} of the creator (all basic ones when none are named). The counts
     * ({@code follower_count, following_count, likes_count, video_count}) need {@code user.info.stats}, refused
     * {@code scope_not_authorized} (HTTP 401, TikTok's error table) without it, and are {@link #userStatistics}.
     */
    private FakeResponse userInfo(FakeRequest request, IssuedGrant grant) {
        List<String> fields = fields(request);
        if (fields.stream().anyMatch(STATS_FIELDS::contains) && !grant.scopes().contains("user.info.stats")) {
            return scopeMissing(401);
        }
        ObjectNode user = object().put("open_id", OPEN_ID)
                .put("union_id", "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1")
                .put("avatar_url", "https://p16-sign.tiktokcdn-us.com/fake/avatar.jpeg")
                .put("display_name", "Herald Fake Dance")
                .put("username", USERNAME);
        if (!fields.isEmpty()) {
            user.setAll(userStatistics(Instant.now()));
            user.retain(fields);
        }
        ObjectNode data = object();
        data.set("user", user);
        return envelope(200, data, "ok", "");
    }

    /**
     * The creator's counts, a pure function of the published videos and the time: {@code video_count} the videos,
     * {@code likes_count} the sum of their {@code like_count}, {@code follower_count} 1200 plus a twentieth of their
     * views, {@code following_count} 87.
     */
    private ObjectNode userStatistics(Instant now) {
        List<ObjectNode> videos = publishedWhere(item -> true);
        long views = 0;
        long likes = 0;
        for (ObjectNode video : videos) {
            ObjectNode counts = videoCounts(video, now);
            views += counts.get("view_count").asLong();
            likes += counts.get("like_count").asLong();
        }
        return object().put("follower_count", 1200 + views / 20)
                .put("following_count", 87)
                .put("likes_count", likes)
                .put("video_count", videos.size());
    }

    /**
     * Query Videos (Display API, scope {@code video.list}): {@code {"filters": {"video_ids": [1 to 20 ids]}}} and the
     * {@code fields} to answer; the creator's published videos among the ids, the others left out, as TikTok does.
     */
    private FakeResponse videoQuery(FakeRequest request) {
        List<String> fields = fields(request);
        if (fields.isEmpty() || !VIDEO_FIELDS.containsAll(fields)) {
            return invalid("fields must name Video object fields (" + String.join(",", VIDEO_FIELDS) + ").");
        }
        JsonNode body = jsonBody(request);
        JsonNode ids = body == null ? null : body.path("filters").path("video_ids");
        if (ids == null || !ids.isArray() || ids.isEmpty() || ids.size() > 20) {
            return invalid("filters.video_ids must list 1 to 20 video ids.");
        }
        Set<String> wanted = new java.util.HashSet<>();
        ids.forEach(id -> wanted.add(id.asText()));
        Instant now = Instant.now();
        ObjectNode data = object();
        var videos = data.putArray("videos");
        for (ObjectNode item :
                publishedWhere(item -> wanted.contains(item.path("id").asText()))) {
            ObjectNode video = videoCounts(item, now)
                    .put("id", item.path("id").asText())
                    .put("create_time", item.path("create_time").asLong())
                    .put("title", item.path("post_info").path("title").asText(""))
                    .put(
                            "share_url",
                            "https://www.tiktok.com/@" + USERNAME + "/video/"
                                    + item.path("id").asText());
            video.retain(fields);
            videos.add(video);
        }
        data.put("cursor", now.toEpochMilli()).put("has_more", false);
        return envelope(200, data, "ok", "");
    }

    /**
     * A published video's counts, growing with the whole minutes {@code m} since it was published: with {@code s} the
     * first 8 hex digits of SHA-256 of its id, {@code view_count = s mod 1000 + m * (1 + s mod 10)},
     * {@code like_count = view_count / 12}, {@code comment_count = view_count / 60}, {@code share_count = view_count / 90}.
     */
    public static ObjectNode videoCounts(ObjectNode item, Instant now, ObjectMapper mapper) {
        long s = seed(item.path("id").asText());
        long minutes =
                Math.max(0, (now.getEpochSecond() - item.path("create_time").asLong()) / 60);
        long views = s % 1000 + minutes * (1 + s % 10);
        return mapper.createObjectNode()
                .put("view_count", views)
                .put("like_count", views / 12)
                .put("comment_count", views / 60)
                .put("share_count", views / 90);
    }

    private ObjectNode videoCounts(ObjectNode item, Instant now) {
        return videoCounts(item, now, mapper);
    }

    /** The first 8 hex digits of SHA-256 of the text, as a number. */
    static long seed(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Long.parseLong(HexFormat.of().formatHex(digest, 0, 4), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The comma-separated {@code fields} query parameter. */
    private static List<String> fields(FakeRequest request) {
        Object fields = request.queryParameter("fields");
        if (fields == null || String.valueOf(fields).isBlank()) {
            return List.of();
        }
        return Arrays.stream(String.valueOf(fields).split(","))
                .map(String::strip)
                .filter(field -> !field.isEmpty())
                .toList();
    }

    @Override
    public boolean actsOn(FailureKind kind, FakeRequest request) {
        if (kind == FailureKind.PROCESSING_ERROR) {
            return request.is("POST", "/v2/post/publish/video/init/?");
        }
        return super.actsOn(kind, request);
    }

    /** A Direct Post of a video Herald uploads itself; the chunk arithmetic as TikTok's media transfer guide states it. */
    private FakeResponse init(FakeRequest request, IssuedGrant grant) {
        JsonNode body = jsonBody(request);
        if (body == null) {
            return invalid("The request body must be JSON.");
        }
        JsonNode postInfo = body.path("post_info");
        String privacy = postInfo.path("privacy_level").asText("");
        if (!PRIVACY_LEVELS.contains(privacy)) {
            return envelope(
                    400,
                    null,
                    "privacy_level_option_mismatch",
                    "privacy_level '" + privacy + "' is not one of the" + " creator's privacy_level_options.");
        }
        if (postInfo.path("title")
                        .asText("")
                        .codePointCount(0, postInfo.path("title").asText("").length())
                > 2200) {
            return invalid("post_info.title is longer than 2200 characters.");
        }
        JsonNode source = body.path("source_info");
        if ("PULL_FROM_URL".equals(source.path("source").asText())) {
            return envelope(
                    403, null, "url_ownership_unverified", "The fake TikTok app has verified no URL prefix or domain.");
        }
        if (!"FILE_UPLOAD".equals(source.path("source").asText())) {
            return invalid("source_info.source must be FILE_UPLOAD or PULL_FROM_URL.");
        }
        long size = source.path("video_size").asLong(0);
        long chunkSize = source.path("chunk_size").asLong(0);
        long chunks = source.path("total_chunk_count").asLong(0);
        String wrong = chunkProblem(size, chunkSize, chunks);
        if (wrong != null) {
            return invalid(wrong);
        }
        String publishId = "v_pub_file~v2-1." + FakeIds.digits(19);
        String uploadId = FakeIds.digits(19);
        boolean fails = request.failure() != null && request.failure().getKind() == FailureKind.PROCESSING_ERROR;
        Post post = new Post(
                publishId, grant.grantId(), FakeIds.alphanumeric(32), postInfo, size, chunkSize, chunks, fails);
        posts.put(publishId, post);
        uploads.put(uploadId, post);
        String host = request.header("host") == null ? "127.0.0.1:8190" : request.header("host");
        ObjectNode data = object().put("publish_id", publishId)
                .put(
                        "upload_url",
                        "http://" + host + "/tiktok/upload/?upload_id=" + uploadId + "&upload_token="
                                + post.uploadToken);
        return envelope(200, data, "ok", "");
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
    private FakeResponse chunk(FakeRequest request) {
        Post post = uploads.get(String.valueOf(request.queryParameter("upload_id")));
        if (post == null || !post.uploadToken.equals(request.queryParameter("upload_token"))) {
            return envelope(404, null, "invalid_params", "No upload at this upload_id and upload_token.");
        }
        String type = request.header("content-type");
        if (type == null || !VIDEO_TYPES.contains(type.split(";")[0].strip().toLowerCase())) {
            return envelope(
                    400, null, "invalid_file_upload", "Content-Type must be video/mp4, video/quicktime or video/webm.");
        }
        Matcher range = CONTENT_RANGE.matcher(String.valueOf(request.header("content-range")));
        long bytes = request.upload() == null ? 0 : request.upload().size();
        synchronized (post) {
            if (!range.matches()) {
                return envelope(
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
                return envelope(
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
    private FakeResponse status(FakeRequest request, IssuedGrant grant) {
        JsonNode body = jsonBody(request);
        Post post = body == null ? null : posts.get(body.path("publish_id").asText(""));
        if (post == null) {
            return envelope(400, null, "invalid_publish_id", "The publish_id does not exist.");
        }
        if (!post.grantId.equals(grant.grantId())) {
            return envelope(
                    400,
                    null,
                    "token_not_authorized_for_specified_publish_id",
                    "The access_token does not have authorization to the publish_id.");
        }
        ObjectNode data = object();
        synchronized (post) {
            data.put("uploaded_bytes", post.received);
            if (post.received < post.size || post.fetchesSinceComplete++ == 0) {
                data.put("status", "PROCESSING_UPLOAD");
            } else if (post.fails) {
                data.put("status", "FAILED").put("fail_reason", "file_format_check_failed");
            } else {
                if (post.postId == null) {
                    post.postId = FakeIds.digits(19);
                    ObjectNode item = object().put("id", post.postId)
                            .put("publish_id", post.publishId)
                            .put("create_time", Instant.now().getEpochSecond())
                            .put("creator_username", USERNAME)
                            .put("video_size", post.size);
                    item.set("post_info", post.postInfo);
                    publish(item);
                }
                data.put("status", "PUBLISH_COMPLETE");
                var ids = data.putArray("publicaly_available_post_id");
                if ("PUBLIC_TO_EVERYONE"
                        .equals(post.postInfo.path("privacy_level").asText())) {
                    ids.add(new java.math.BigInteger(post.postId));
                }
            }
        }
        return envelope(200, data, "ok", "");
    }

    private FakeResponse invalid(String message) {
        return envelope(400, null, "invalid_params", message);
    }

    @Override
    public void reset() {
        super.reset();
        posts.clear();
        uploads.clear();
    }

    private FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_key"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(
                        platform(),
                        form.get("code"),
                        form.get("client_key"),
                        form.get("redirect_uri"),
                        form.get("code_verifier"));
                return json(200, tokenAnswer(FakeIds.alphanumeric(16), code.scopes()));
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (tokens.state(platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(200, "invalid_grant", "Refresh token is invalid or expired.");
                }
                IssuedGrant grant = tokens.grant(platform(), refreshToken);
                tokens.retire(platform(), refreshToken);
                return json(200, tokenAnswer(grant.grantId(), grant.scopes()));
            }
            throw new OAuthRefusal(200, "unsupported_grant_type", "grant_type is not supported.");
        } catch (OAuthRefusal refusal) {
            return oauthError(refusal);
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes) {
        return object().put(
                        "access_token",
                        tokens.issueAccess(
                                platform(), grantId, OPEN_ID, scopes, ACCESS_LIFETIME, FakeIds.token("act.", 72)))
                .put("expires_in", ACCESS_LIFETIME.toSeconds())
                .put("open_id", OPEN_ID)
                .put("refresh_expires_in", REFRESH_LIFETIME.toSeconds())
                .put(
                        "refresh_token",
                        tokens.issueRefresh(
                                platform(), grantId, OPEN_ID, scopes, REFRESH_LIFETIME, FakeIds.token("rft.", 72)))
                .put("scope", String.join(",", scopes))
                .put("token_type", "Bearer");
    }

    /** TikTok's token endpoint refuses with HTTP 200 and an error body (a bad client with 401). */
    private FakeResponse oauthError(OAuthRefusal refusal) {
        return json(
                refusal.status() == 401 ? 401 : 200,
                object().put("error", refusal.error())
                        .put("error_description", refusal.getMessage())
                        .put("log_id", logId()));
    }

    private FakeResponse envelope(int status, ObjectNode data, String code, String message) {
        ObjectNode body = object();
        body.set("data", data == null ? object() : data);
        body.putObject("error").put("code", code).put("message", message).put("log_id", logId());
        return json(status, body);
    }

    private static String logId() {
        return "2026" + FakeIds.digits(10) + FakeIds.alphanumeric(18).toUpperCase();
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        return envelope(failure.statusOr(429), null, "rate_limit_exceeded", "The API rate limit was exceeded.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return envelope(status, null, "internal_error", "Something went wrong. Please try again later.");
    }
}
