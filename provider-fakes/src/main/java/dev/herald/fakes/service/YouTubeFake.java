package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import dev.herald.fakes.model.ReceivedBytes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * replies; {@code POST /youtube/v3/comments?part=snippet} replies to a top-level comment as the channel. See
 * {@link #commentThreads}.
 * <p>
 * OAuth errors are {@code {"error", "error_description"}}; API errors Google's
 * {@code {"error": {"code", "message", "errors": [{"reason", "domain"}], "status"}}}.
 */
@Singleton
public class YouTubeFake extends StatefulPlatformFake {
    private static final String FORCE_SSL = "https://www.googleapis.com/auth/youtube.force-ssl";
    public static final String GOOGLE_SUBJECT = "109876543210987654321";
    public static final String CHANNEL_ID = "UCq3HeraldFakeChannel0001";
    public static final String CHANNEL_TITLE = "Herald Fake Garden";
    private static final int MAX_COMMENT_LENGTH = 10_000;
    private static final Duration ACCESS_LIFETIME = Duration.ofSeconds(3599);
    private static final String UPLOADS = "/upload/youtube/v3/videos";
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (?:(\\d+)-(\\d+)|\\*)/(\\d+)$");

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

    private final Map<String, UploadSession> uploads = new ConcurrentHashMap<>();

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
            return token(request);
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
            return startUpload(request);
        }
        if (request.is("PUT", UPLOADS)) {
            return continueUpload(request);
        }
        if (request.is("GET", "/youtube/v3/channels")) {
            return channels(request);
        }
        if (request.is("GET", "/youtube/v3/videos")) {
            return videos(request);
        }
        if (request.is("GET", "/youtube/v3/commentThreads")) {
            return commentThreads(request);
        }
        if (request.is("POST", "/youtube/v3/comments")) {
            return insertComment(request);
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

    /**
     * {@code commentThreads.list} by {@code videoId}: the video's threads (the top-level comment's id is the thread's),
     * newest first whatever the {@code order}, with the parts asked for ({@code id}, {@code snippet}, {@code replies}:
     * every reply, oldest first, left out when there is none); {@code maxResults} (20, at most 100) and
     * {@code pageToken} page through them ({@code nextPageToken}). {@code textFormat=plainText} gives
     * {@code textDisplay} as written, else HTML-escaped; {@code textOriginal} only on the channel's own comments, as
     * YouTube documents ("only returned to the authenticated user if they are the comment's author"). The comments are
     * the video's {@link SeededComments} (from their channels) and the replies posted as the channel. A video the fake
     * did not publish is YouTube's 404 {@code videoNotFound}.
     */
    private FakeResponse commentThreads(FakeRequest request) {
        String part = request.queryParameter("part");
        String videoId = request.queryParameter("videoId");
        if (part == null || videoId == null) {
            return apiError(
                    400,
                    "missingRequiredParameter",
                    "INVALID_ARGUMENT",
                    "part and videoId are required (the fake fakes the" + " videoId filter only).");
        }
        JsonNode video = publishedWhere(item -> videoId.equals(item.path("id").asText())).stream()
                .findFirst()
                .orElse(null);
        if (video == null) {
            return apiError(
                    404,
                    "videoNotFound",
                    "NOT_FOUND",
                    "The video identified by the videoId parameter could not be found.");
        }
        Set<String> parts = Set.of(part.split(","));
        boolean plainText = "plainText".equals(request.queryParameter("textFormat"));
        List<FakeComment> all = comments(video);
        List<FakeComment> threads =
                new ArrayList<>(all.stream().filter(FakeComment::topLevel).toList());
        Collections.reverse(threads);
        int start = 0;
        String pageToken = request.queryParameter("pageToken");
        if (pageToken != null) {
            String offset = position(pageToken);
            if (offset == null || !offset.matches("[0-9]{1,6}") || Integer.parseInt(offset) > threads.size()) {
                return apiError(
                        400, "invalidPageToken", "INVALID_ARGUMENT", "The request specifies an invalid page token.");
            }
            start = Integer.parseInt(offset);
        }
        int maxResults = Math.min(100, request.intQueryParameter("maxResults", 20));
        List<FakeComment> page = threads.subList(start, Math.min(threads.size(), start + maxResults));
        ObjectNode body =
                object().put("kind", "youtube#commentThreadListResponse").put("etag", FakeIds.alphanumeric(27));
        if (start + page.size() < threads.size()) {
            body.put("nextPageToken", cursor(Integer.toString(start + page.size())));
        }
        body.putObject("pageInfo").put("totalResults", page.size()).put("resultsPerPage", maxResults);
        ArrayNode items = body.putArray("items");
        for (FakeComment top : page) {
            ObjectNode thread = items.addObject()
                    .put("kind", "youtube#commentThread")
                    .put("etag", FakeIds.alphanumeric(27))
                    .put("id", top.id());
            List<FakeComment> replies = repliesTo(all, top.id());
            if (parts.contains("snippet")) {
                thread.putObject("snippet")
                        .put("channelId", CHANNEL_ID)
                        .put("videoId", videoId)
                        .<ObjectNode>set("topLevelComment", commentResource(top, plainText))
                        .put("canReply", true)
                        .put("totalReplyCount", replies.size())
                        .put("isPublic", true);
            }
            if (parts.contains("replies") && !replies.isEmpty()) {
                ArrayNode comments = thread.putObject("replies").putArray("comments");
                replies.forEach(reply -> comments.add(commentResource(reply, plainText)));
            }
        }
        return json(200, body);
    }

    /**
     * {@code comments.insert?part=snippet} with {@code snippet.parentId} (a top-level comment: YouTube takes replies to
     * those only, so a reply's id is 404 {@code parentCommentNotFound} like an unknown one) and
     * {@code snippet.textOriginal} (1 to 10,000 characters): the reply, as the channel, joins the thread; answers the
     * comment resource.
     */
    private FakeResponse insertComment(FakeRequest request) {
        IssuedGrant grant = grant(request);
        if (grant == null || !grant.scopes().contains(FORCE_SSL)) {
            // comments.insert is authorized by youtube.force-ssl only (neither youtube.upload nor youtube.readonly
            // does).
            return apiError(
                    403,
                    "insufficientPermissions",
                    "PERMISSION_DENIED",
                    "Request had insufficient authentication scopes.");
        }
        String part = request.queryParameter("part");
        JsonNode body = jsonBody(request);
        JsonNode snippet = body == null ? null : body.path("snippet");
        if (part == null || !Set.of(part.split(",")).contains("snippet") || snippet == null || !snippet.isObject()) {
            return apiError(
                    400, "invalidPart", "INVALID_ARGUMENT", "part=snippet and the comment's JSON are required.");
        }
        String parentId = snippet.path("parentId").asText("");
        FakeComment parent = null;
        for (JsonNode video : published()) {
            for (FakeComment comment : comments(video)) {
                if (comment.topLevel() && comment.id().equals(parentId)) {
                    parent = comment;
                }
            }
        }
        if (parent == null) {
            return apiError(
                    404,
                    "parentCommentNotFound",
                    "NOT_FOUND",
                    "The specified parent comment could not be found. Check the"
                            + " value of the request's snippet.parentId property to ensure that it is correct.");
        }
        String text = snippet.path("textOriginal").asText("");
        if (text.isBlank()) {
            return apiError(
                    400,
                    "invalidCommentMetadata",
                    "INVALID_ARGUMENT",
                    "The request metadata is invalid: snippet.textOriginal" + " is required.");
        }
        if (text.length() > MAX_COMMENT_LENGTH) {
            return apiError(
                    400,
                    "commentTextTooLong",
                    "INVALID_ARGUMENT",
                    "The comment resource that is being inserted or updated"
                            + " contains too many characters in the snippet.textOriginal property.");
        }
        FakeComment reply = keepComment(new FakeComment(
                parent.id() + "." + FakeIds.token("", 22),
                parent.itemId(),
                parent.id(),
                text,
                CHANNEL_ID,
                CHANNEL_TITLE,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return json(200, commentResource(reply, true));
    }

    /**
     * A video's comments, oldest first. Top-level ids look like YouTube's ({@code Ugz} + 16 letters + {@code 4AaABAg}),
     * a reply's is its parent's, a dot and 22 letters; seeded ones are dated at the video's publication.
     */
    private List<FakeComment> comments(JsonNode video) {
        String videoId = video.path("id").asText();
        Instant publishedAt =
                Instant.parse(video.path("snippet").path("publishedAt").asText());
        return commentsOn(videoId, seed -> {
            String topId = "Ugz"
                    + SeededComments.letters(
                            videoId, seed.parentIndex() == null ? seed.index() : seed.parentIndex(), 16)
                    + "4AaABAg";
            return new FakeComment(
                    seed.parentIndex() == null
                            ? topId
                            : topId + "." + SeededComments.letters(videoId, seed.index(), 22),
                    videoId,
                    seed.parentIndex() == null ? null : topId,
                    seed.text(),
                    seed.author().youtubeChannelId(),
                    seed.author().name(),
                    publishedAt,
                    false);
        });
    }

    /** The comment resource (https://developers.google.com/youtube/v3/docs/comments#resource). */
    private ObjectNode commentResource(FakeComment comment, boolean plainText) {
        ObjectNode resource = object().put("kind", "youtube#comment")
                .put("etag", FakeIds.alphanumeric(27))
                .put("id", comment.id());
        ObjectNode snippet = resource.putObject("snippet").put("channelId", CHANNEL_ID);
        if (comment.topLevel()) {
            snippet.put("videoId", comment.itemId());
        }
        snippet.put("textDisplay", plainText ? comment.text() : html(comment.text()));
        if (comment.own()) {
            snippet.put("textOriginal", comment.text());
        }
        if (!comment.topLevel()) {
            snippet.put("parentId", comment.parentId());
        }
        String published = comment.createdAt().toString();
        snippet.put("authorDisplayName", comment.authorName())
                .put(
                        "authorProfileImageUrl",
                        "https://yt3.ggpht.com/ytc/" + comment.authorId() + "=s48-c-k-c0x00ffffff-no-rj")
                .put("authorChannelUrl", "http://www.youtube.com/channel/" + comment.authorId());
        snippet.putObject("authorChannelId").put("value", comment.authorId());
        snippet.put("canRate", true)
                .put("viewerRating", "none")
                .put("likeCount", 0)
                .put("publishedAt", published)
                .put("updatedAt", published);
        return resource;
    }

    /** {@code textFormat=html}: the text escaped, line breaks as {@code <br>}. */
    private static String html(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;")
                .replace("\n", "<br>");
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
        uploads.clear();
    }

    private FakeResponse startUpload(FakeRequest request) {
        if (!"resumable".equals(request.queryParameter("uploadType"))) {
            return apiError(400, "invalidUploadType", "INVALID_ARGUMENT", "Only uploadType=resumable is faked.");
        }
        JsonNode video = jsonBody(request);
        String part = request.queryParameter("part");
        if (video == null || part == null || !Set.of(part.split(",")).containsAll(Set.of("snippet", "status"))) {
            return apiError(
                    400, "invalidPart", "INVALID_ARGUMENT", "part=snippet,status and the video's JSON are required.");
        }
        if (video.path("snippet").path("title").asText("").isBlank()) {
            return apiError(
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
            return apiError(
                    400,
                    "badContent",
                    "INVALID_ARGUMENT",
                    "X-Upload-Content-Length (bytes) and X-Upload-Content-Type (video/*) are required.");
        }
        UploadSession session =
                new UploadSession(FakeIds.alphanumeric(32), CHANNEL_ID, video, Long.parseLong(length), type);
        uploads.put(session.id, session);
        String host = request.header("host");
        return FakeResponse.empty(200)
                .withHeader(
                        "Location",
                        "http://" + host + "/youtube" + UPLOADS + "?uploadType=resumable&upload_id=" + session.id);
    }

    private FakeResponse continueUpload(FakeRequest request) {
        UploadSession session = uploads.get(String.valueOf(request.queryParameter("upload_id")));
        if (session == null) {
            return apiError(
                    404, "notFound", "NOT_FOUND", "No upload session " + request.queryParameter("upload_id") + ".");
        }
        long arrived = request.upload() == null ? 0 : request.upload().size();
        String contentRange = request.header("content-range");
        Matcher range = CONTENT_RANGE.matcher(contentRange == null ? "" : contentRange);
        long from = 0;
        if (contentRange != null) {
            if (!range.matches() || Long.parseLong(range.group(3)) != session.size) {
                return apiError(
                        400,
                        "badContent",
                        "INVALID_ARGUMENT",
                        "Content-Range " + contentRange + " does not fit the upload of " + session.size + " bytes.");
            }
            if (range.group(1) == null) {
                // Where does the session stand?
                return session.video != null ? json(200, session.video) : incomplete(session);
            }
            from = Long.parseLong(range.group(1));
            if (Long.parseLong(range.group(2)) - from + 1 != arrived) {
                return apiError(
                        400,
                        "badContent",
                        "INVALID_ARGUMENT",
                        "Content-Range " + contentRange + " announces other than the " + arrived + " bytes sent.");
            }
        }
        if (session.video != null) {
            return json(200, session.video);
        }
        if (from != session.received || session.received + arrived > session.size) {
            return apiError(
                    400,
                    "badContent",
                    "INVALID_ARGUMENT",
                    "The upload continues at byte " + session.received + " of " + session.size + ", not " + from + ".");
        }
        session.received += arrived;
        if (arrived > 0) {
            session.parts.add(request.upload());
        }
        return session.received < session.size ? incomplete(session) : json(200, finish(session));
    }

    /** 308 Resume Incomplete, with the bytes the session holds (none: no Range header, as Google answers). */
    private static FakeResponse incomplete(UploadSession session) {
        FakeResponse answer = FakeResponse.empty(308);
        return session.received == 0 ? answer : answer.withHeader("Range", "bytes=0-" + (session.received - 1));
    }

    /** The video resource YouTube answers; the published record adds what it received, for tests. */
    private ObjectNode finish(UploadSession session) {
        ObjectNode video = object().put("kind", "youtube#video")
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
        snippet.put("channelTitle", CHANNEL_TITLE);
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
        publish(received);
        return video;
    }

    private FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_id"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(
                        platform(),
                        form.get("code"),
                        form.get("client_id"),
                        form.get("redirect_uri"),
                        form.get("code_verifier"));
                String grantId = FakeIds.alphanumeric(16);
                ObjectNode answer = tokenAnswer(grantId, code.scopes(), code.clientId());
                answer.put(
                        "refresh_token",
                        tokens.issueRefresh(
                                platform(), grantId, GOOGLE_SUBJECT, code.scopes(), null, FakeIds.token("1//0", 100)));
                return json(200, answer);
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (tokens.state(platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(400, "invalid_grant", "Token has been expired or revoked.");
                }
                IssuedGrant grant = tokens.grant(platform(), refreshToken);
                return json(200, tokenAnswer(grant.grantId(), grant.scopes(), form.get("client_id")));
            }
            throw new OAuthRefusal(400, "unsupported_grant_type", "Invalid grant_type: " + form.get("grant_type"));
        } catch (OAuthRefusal refusal) {
            String description =
                    "invalid_client".equals(refusal.error()) ? "The OAuth client was not found." : refusal.getMessage();
            return json(refusal.status(), object().put("error", refusal.error()).put("error_description", description));
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes, String clientId) {
        ObjectNode answer = object().put(
                        "access_token",
                        tokens.issueAccess(
                                platform(),
                                grantId,
                                GOOGLE_SUBJECT,
                                scopes,
                                ACCESS_LIFETIME,
                                FakeIds.token("ya29.", 160)))
                .put("expires_in", ACCESS_LIFETIME.toSeconds())
                .put("scope", String.join(" ", scopes))
                .put("token_type", "Bearer");
        if (scopes.contains("openid")) {
            answer.put("id_token", idToken("https://accounts.google.com", clientId, GOOGLE_SUBJECT, null));
        }
        return answer;
    }

    private FakeResponse apiError(int status, String reason, String statusName, String message) {
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

    @Override
    public FakeResponse serverError(int status) {
        return apiError(status, "backendError", status == 503 ? "UNAVAILABLE" : "INTERNAL", "Backend Error");
    }
}
