package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * YouTube below {@code /youtube}: Google's authorization endpoint {@code /o/oauth2/v2/auth} (PKCE S256 checked),
 * {@code /oauth2/token} and {@code /oauth2/revoke} (point {@code oauth-url} at {@code /youtube/oauth2}), and the Data
 * API's {@code /youtube/v3/channels?mine=true}. Google issues a refresh token with {@code access_type=offline} and
 * does not rotate it.
 * <p>
 * Uploads (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol): {@code POST
 * /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status} with the video's JSON and
 * {@code X-Upload-Content-Length}/{@code -Type} opens a session (its URI in {@code Location}); {@code PUT} to it sends
 * the bytes, all at once or from an offset ({@code Content-Range: bytes a-b/size}), streamed and hashed, never held;
 * {@code 308 Resume Incomplete} with {@code Range: bytes=0-n} until the last byte, then {@code 200} and the video.
 * {@code PUT} with {@code Content-Range: bytes *}{@code /size} and no body asks where the session stands.
 * <p>
 * Comments (https://developers.google.com/youtube/v3/docs/commentThreads/list, .../comments/insert):
 * {@code GET /youtube/v3/commentThreads?videoId=} lists a published video's threads, newest first, each with its
 * replies; {@code POST /youtube/v3/comments?part=snippet} replies to a top-level comment as the channel;
 * {@code POST /youtube/v3/commentThreads?part=snippet} starts a thread (a top-level comment) on a video. See
 * {@link YouTubeComments#commentThreads}.
 * <p>
 * OAuth errors are {@code {"error", "error_description"}}; API errors Google's
 * {@code {"error": {"code", "message", "errors": [{"reason", "domain"}], "status"}}}.
 * This class routes and answers OAuth, channels and videos; {@link YouTubeTokenEndpoint}, {@link YouTubeUploads} and
 * {@link YouTubeComments} answer the token endpoint, the upload and the comments.
 */
@Singleton
public class YouTubeFake extends StatefulPlatformFake {
    static final String FORCE_SSL = "https://www.googleapis.com/auth/youtube.force-ssl";
    public static final String GOOGLE_SUBJECT = "109876543210987654321";
    public static final String CHANNEL_ID = "UCq3HeraldFakeChannel0001";
    public static final String CHANNEL_TITLE = "Herald Fake Garden";
    static final String UPLOADS = "/upload/youtube/v3/videos";

    private final YouTubeUploads uploads = new YouTubeUploads(this);
    private final YouTubeComments commentEdges = new YouTubeComments(this);
    private final YouTubeTokenEndpoint tokenEndpoint = new YouTubeTokenEndpoint(this);

    public YouTubeFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public String platform() {
        return "youtube";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/o/oauth2/v2/auth");
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("POST", "/oauth2/token")) {
            return tokenEndpoint.token(request);
        }
        if (request.is("POST", "/oauth2/revoke")) {
            String token = request.form().get("token");
            if (token == null) {
                token = request.queryParameter("token");
            }
            IssuedGrant grant = tokens.grant(platform(), token);
            if (grant == null || tokens.state(platform(), token, grant.refreshToken()) != IssuedTokens.State.VALID) {
                return json(
                        400,
                        object().put("error", "invalid_token").put("error_description", "Token expired or revoked"));
            }
            tokens.revokeGrant(grant.grantId());
            return json(200, object());
        }
        if (request.is("GET", "/oauth2/tokeninfo")) {
            return tokenInfo(request.queryParameter("access_token"));
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return apiError(
                    401,
                    "authError",
                    "UNAUTHENTICATED",
                    "Request had invalid authentication credentials. Expected"
                            + " OAuth 2 access token, login cookie or other valid authentication credential.");
        }
        if (request.is("POST", UPLOADS)) {
            return uploads.startUpload(request);
        }
        if (request.is("PUT", UPLOADS)) {
            return uploads.continueUpload(request);
        }
        if (request.is("GET", "/youtube/v3/channels")) {
            return channels(request);
        }
        if (request.is("GET", "/youtube/v3/videos")) {
            return videos(request);
        }
        if (request.is("GET", "/youtube/v3/commentThreads")) {
            return commentEdges.commentThreads(request);
        }
        if (request.is("POST", "/youtube/v3/comments")) {
            return commentEdges.insertComment(request);
        }
        if (request.is("POST", "/youtube/v3/commentThreads")) {
            return commentEdges.insertThread(request);
        }
        return apiError(
                404,
                "notFound",
                "NOT_FOUND",
                "the fake YouTube has no endpoint " + request.method() + " " + request.path());
    }

    /**
     * {@code channels.list} (https://developers.google.com/youtube/v3/docs/channels/list) by {@code mine=true} or
     * {@code id}, with the {@code snippet} and {@code statistics} parts; another channel's id lists nothing.
     * Statistics are {@link PublishedMetrics}'s account numbers over the channel's videos, as strings, as YouTube sends
     * them.
     */
    private FakeResponse channels(FakeRequest request) {
        String part = request.queryParameter("part");
        String id = request.queryParameter("id");
        if (part == null || (!"true".equals(request.queryParameter("mine")) && id == null)) {
            return apiError(
                    400,
                    "missingRequiredParameter",
                    "INVALID_ARGUMENT",
                    "part and one of mine=true or id are required (the fake fakes these filters only).");
        }
        Set<String> parts = Set.of(part.split(","));
        ObjectNode body = object().put("kind", "youtube#channelListResponse").put("etag", FakeIds.alphanumeric(27));
        ArrayNode items = body.putArray("items");
        if (id == null || List.of(id.split(",")).contains(CHANNEL_ID)) {
            ObjectNode channel = items.addObject()
                    .put("kind", "youtube#channel")
                    .put("etag", FakeIds.alphanumeric(27))
                    .put("id", CHANNEL_ID);
            if (parts.contains("snippet")) {
                channel.putObject("snippet")
                        .put("title", CHANNEL_TITLE)
                        .put("description", "Herald's fake channel")
                        .put("customUrl", "@heraldfakegarden")
                        .put("publishedAt", "2021-03-14T09:26:53Z");
            }
            if (parts.contains("statistics")) {
                Instant now = Instant.now();
                PublishedMetrics.Account counts = PublishedMetrics.account(published().stream()
                        .map(video -> videoNumbers(video, now))
                        .toList());
                channel.putObject("statistics")
                        .put("viewCount", Long.toString(counts.views()))
                        .put("subscriberCount", Long.toString(counts.followers()))
                        .put("hiddenSubscriberCount", false)
                        .put("videoCount", Long.toString(counts.posts()));
            }
        }
        body.putObject("pageInfo").put("totalResults", items.size()).put("resultsPerPage", 5);
        return json(200, body);
    }

    /**
     * {@code videos.list?part=statistics&id=} (https://developers.google.com/youtube/v3/docs/videos/list): the videos
     * the fake holds among the ids, each with {@link PublishedMetrics}'s views, likes and comments as strings
     * ({@code favoriteCount} is always "0"); unknown ids are left out, as YouTube does (an empty list, HTTP 200).
     */
    private FakeResponse videos(FakeRequest request) {
        String part = request.queryParameter("part");
        String ids = request.queryParameter("id");
        if (part == null || ids == null) {
            return apiError(
                    400,
                    "missingRequiredParameter",
                    "INVALID_ARGUMENT",
                    "part and id are required (the fake fakes the id" + " filter only).");
        }
        Set<String> parts = Set.of(part.split(","));
        Instant now = Instant.now();
        ObjectNode body = object().put("kind", "youtube#videoListResponse").put("etag", FakeIds.alphanumeric(27));
        ArrayNode items = body.putArray("items");
        for (String id : ids.split(",")) {
            publishedWhere(video -> id.equals(video.path("id").asText())).stream()
                    .findFirst()
                    .ifPresent(video -> {
                        ObjectNode item = items.addObject()
                                .put("kind", "youtube#video")
                                .put("etag", FakeIds.alphanumeric(27))
                                .put("id", id);
                        if (parts.contains("snippet")) {
                            item.set("snippet", video.get("snippet"));
                        }
                        if (parts.contains("statistics")) {
                            PublishedMetrics.Item numbers = videoNumbers(video, now);
                            item.putObject("statistics")
                                    .put("viewCount", Long.toString(numbers.views()))
                                    .put("likeCount", Long.toString(numbers.likes()))
                                    .put("favoriteCount", "0")
                                    .put("commentCount", Long.toString(numbers.comments()));
                        }
                    });
        }
        body.putObject("pageInfo").put("totalResults", items.size()).put("resultsPerPage", items.size());
        return json(200, body);
    }

    private static PublishedMetrics.Item videoNumbers(JsonNode video, Instant now) {
        return PublishedMetrics.item(
                video.path("id").asText(),
                Instant.parse(video.path("snippet").path("publishedAt").asText()),
                now);
    }

    @Override
    public boolean receivesBytes(String method, String path) {
        return "PUT".equals(method) && UPLOADS.equals(path);
    }

    @Override
    public void reset() {
        super.reset();
        uploads.reset();
    }

    FakeResponse apiError(int status, String reason, String statusName, String message) {
        ObjectNode body = object();
        ObjectNode error = body.putObject("error").put("code", status).put("message", message);
        error.putArray("errors")
                .addObject()
                .put("message", message)
                .put("domain", "global")
                .put("reason", reason);
        error.put("status", statusName);
        return json(status, body);
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        int status = failure.statusOr(429);
        return apiError(
                status,
                "rateLimitExceeded",
                "RESOURCE_EXHAUSTED",
                "The request cannot be completed because you have" + " exceeded your quota.");
    }

    /** Google's refusal: {@code forbidden} for 403, else {@code badRequest}. */
    @Override
    public FakeResponse refused(int status) {
        return status == 403
                ? apiError(status, "forbidden", "PERMISSION_DENIED", "The request is not allowed.")
                : apiError(status, "badRequest", "INVALID_ARGUMENT", "The request was refused.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return apiError(status, "backendError", status == 503 ? "UNAVAILABLE" : "INTERNAL", "Backend Error");
    }

    /**
     * Google's tokeninfo ({@code GET /oauth2/tokeninfo?access_token=}): the scopes, space-separated, and the seconds left; 400
     * {@code invalid_token} for a token expired, revoked or never issued.
     */
    private FakeResponse tokenInfo(String token) {
        if (tokens.state(platform(), token, false) != IssuedTokens.State.VALID) {
            return json(400, object().put("error", "invalid_token").put("error_description", "Invalid Value"));
        }
        IssuedGrant grant = tokens.grant(platform(), token);
        ObjectNode info = object().put("azp", "herald-fake-client")
                .put("aud", "herald-fake-client")
                .put("sub", grant.subject())
                .put("scope", String.join(" ", grant.scopes().stream().sorted().toList()))
                .put("access_type", "offline");
        if (grant.expiresAt() != null) {
            info.put("exp", String.valueOf(grant.expiresAt().getEpochSecond()))
                    .put(
                            "expires_in",
                            String.valueOf(Math.max(
                                    0,
                                    grant.expiresAt().getEpochSecond()
                                            - Instant.now().getEpochSecond())));
        }
        return json(200, info);
    }
}
