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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TikTok below {@code /tiktok}: Login Kit's {@code /v2/auth/authorize/} ({@code client_key}), and on the API host
 * {@code /v2/oauth/token/} (code and refresh; a refresh answers a new refresh token), {@code /v2/oauth/revoke/},
 * {@code /v2/user/info/} and the Content Posting API's Direct Post, as TikTok documents it:
 * {@code creator_info/query/}, {@code content/init/} (photo posts pulled from verified URLs, {@link TikTokPhotoInit}),
 * {@code video/init/} ({@code FILE_UPLOAD} only, its chunk arithmetic checked as TikTok's
 * media transfer guide states it), the chunk {@code PUT}s to the upload URL it answers
 * ({@code /tiktok/upload/?upload_id=&upload_token=}, in order, each as long as announced) and {@code status/fetch/}: a
 * complete upload is {@code PROCESSING_UPLOAD} at its first status fetch and {@code PUBLISH_COMPLETE} from the next (an
 * armed {@code processing_error} on init makes it {@code FAILED} with {@code file_format_check_failed} instead).
 * Analytics: Get User Info's counts under {@code user.info.stats} and the Display API's {@code POST /v2/video/query/}
 * under {@code video.list}, numbers that depend only on the published videos and the time ({@link #videoCounts}).
 * <p>
 * API answers are TikTok's envelope {@code {"data": {...}, "error": {"code", "message", "log_id"}}}; token
 * endpoint refusals are {@code {"error", "error_description", "log_id"}} with HTTP 200, as TikTok sends them.
 * This class routes and answers OAuth and creator info; {@link TikTokDirectPost} and {@link TikTokDisplayApi} answer
 * publishing and the reads.
 */
@Singleton
public class TikTokFake extends StatefulPlatformFake {
    public static final String OPEN_ID = "-000Fk3OpenIdHeraldFakeCreator01";
    public static final String USERNAME = "heraldfake.dance";
    private static final Duration ACCESS_LIFETIME = Duration.ofHours(24);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(365);
    static final List<String> PRIVACY_LEVELS = List.of("PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY");

    private final TikTokDirectPost directPost = new TikTokDirectPost(this);
    private final TikTokDisplayApi display = new TikTokDisplayApi(this);
    private final TikTokPhotoInit photoInit = new TikTokPhotoInit(this, directPost);

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
            return directPost.chunk(request);
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return envelope(
                    401, null, "access_token_invalid", "The access token is invalid or not found in the request.");
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/v2/user/info/?")) {
            return display.userInfo(request, grant);
        }
        if (request.is("POST", "/v2/video/query/?")) {
            return grant.scopes().contains("video.list") ? display.videoQuery(request) : scopeMissing(401);
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
            return grant.scopes().contains("video.publish") ? directPost.init(request, grant) : scopeMissing();
        }
        if (request.is("POST", "/v2/post/publish/content/init/?")) {
            return grant.scopes().contains("video.publish") ? photoInit.init(request, grant) : scopeMissing();
        }
        if (request.is("POST", "/v2/post/publish/status/fetch/?")) {
            return grant.scopes().contains("video.publish") || grant.scopes().contains("video.upload")
                    ? directPost.status(request, grant)
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

    FakeResponse scopeMissing(int status) {
        return envelope(
                status,
                null,
                "scope_not_authorized",
                "The user did not authorize the scope required for completing" + " this request.");
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

    ObjectNode videoCounts(ObjectNode item, Instant now) {
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

    @Override
    public boolean actsOn(FailureKind kind, FakeRequest request) {
        if (kind == FailureKind.PROCESSING_ERROR) {
            return request.is("POST", "/v2/post/publish/video/init/?");
        }
        return super.actsOn(kind, request);
    }

    /** TikTok's refusal of a post whose {@code post_info.privacy_level} is not one of the creator's options, or null. */
    FakeResponse privacyMismatch(JsonNode postInfo) {
        String privacy = postInfo.path("privacy_level").asText("");
        if (PRIVACY_LEVELS.contains(privacy)) {
            return null;
        }
        return envelope(
                400,
                null,
                "privacy_level_option_mismatch",
                "privacy_level '" + privacy + "' is not one of the creator's privacy_level_options.");
    }

    FakeResponse invalid(String message) {
        return envelope(400, null, "invalid_params", message);
    }

    @Override
    public void reset() {
        super.reset();
        directPost.reset();
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

    FakeResponse envelope(int status, ObjectNode data, String code, String message) {
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
