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
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LinkedIn below {@code /linkedin}: both of its hosts share the prefix, since their paths do not overlap.
 * <ul>
 * <li>OAuth 2.0 (https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow):
 * {@code /oauth/v2/authorization}, {@code /oauth/v2/accessToken} (code and refresh; LinkedIn issues refresh tokens
 * to approved partners, and the fake behaves as one so refresh can be tested; refresh does not rotate),
 * {@code /oauth/v2/revoke}; an ID token when {@code openid} is granted.</li>
 * <li>{@code /v2/userinfo}, {@code /rest/organizationAcls}, {@code /rest/organizations/{id}}: one member who
 * administers one organization.</li>
 * <li>The Posts API (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api):
 * {@code POST /rest/posts} answers 201 with the URN in {@code x-restli-id}; {@code GET /rest/posts?q=author} lists
 * the author's posts, and like LinkedIn refuses (403) to read a member's posts without {@code r_member_social} or an
 * organization's without {@code r_organization_social}. {@code /rest} calls need {@code LinkedIn-Version}.</li>
 * <li>The Images and Videos APIs' uploads
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api, .../videos-api):
 * {@code POST /rest/images?action=initializeUpload} answers an image URN and an {@code uploadUrl} below
 * {@code /dms-uploads/} on the fake's own host; {@code POST /rest/videos?action=initializeUpload} a video URN and
 * one upload instruction per 4 MiB part; each {@code PUT} there answers {@code 201} (a video part {@code 200} with an
 * {@code ETag}); {@code POST /rest/videos?action=finalizeUpload} checks the parts' ETags in order, and
 * {@code GET /rest/videos/{urn}} then answers {@code AVAILABLE} (the fake processes at once). A post's
 * {@code content.media.id} must name an uploaded image or a finalized video.</li>
 * <li>The Comments API (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
 * {@code GET /rest/socialActions/{urn}/comments} of a post (its top-level comments) or of a comment URN (its nested
 * comments), and {@code POST} to the same path commenting as the member or the organization; see
 * {@link #listComments}.</li>
 * </ul>
 * Errors are LinkedIn's {@code {"status", "serviceErrorCode", "code", "message"}}; OAuth errors
 * {@code {"error", "error_description"}}.
 */
@Singleton
public class LinkedInFake extends StatefulPlatformFake {
    public static final String MEMBER_ID = "hF4k3Mbr0q";
    public static final String MEMBER_NAME = "Fay Kerr";
    public static final String ORGANIZATION_ID = "90421377";
    public static final String ORGANIZATION_NAME = "Herald Fake Industries";
    private static final String PERSON_URN = "urn:li:person:" + MEMBER_ID;
    private static final String ORGANIZATION_URN = "urn:li:organization:" + ORGANIZATION_ID;
    private static final Duration ACCESS_LIFETIME = Duration.ofDays(60);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(365);

    private static final Pattern COMMENT_URN =
            Pattern.compile("^urn:li:comment:\\((urn:li:[A-Za-z]+:[^,]+),([0-9]+)\\)$");

    private static final String UPLOADS = "/dms-uploads/";
    private static final long VIDEO_PART_BYTES = 4L * 1024 * 1024;

    /** Media an owner registered, by URN: its upload state and, for a video, its parts' upload ids. */
    private record Media(String urn, String owner, String status, List<String> parts) {
        Media withStatus(String other) {
            return new Media(urn, owner, other, parts);
        }
    }

    /** By URN. */
    private final Map<String, Media> media = new ConcurrentHashMap<>();
    /** Upload id (the last path segment of an upload URL) to its media's URN. */
    private final Map<String, String> uploads = new ConcurrentHashMap<>();
    /** A video part's upload id to the ETag its PUT answered. */
    private final Map<String, String> partEtags = new ConcurrentHashMap<>();

    public LinkedInFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public boolean receivesBytes(String method, String path) {
        return "PUT".equals(method) && path.startsWith(UPLOADS);
    }

    @Override
    public void reset() {
        super.reset();
        media.clear();
        uploads.clear();
        partEtags.clear();
    }

    @Override
    public String platform() {
        return "linkedin";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/oauth/v2/authorization");
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("POST", "/oauth/v2/accessToken")) {
            return token(request);
        }
        if (request.is("POST", "/oauth/v2/revoke")) {
            return revoke(request);
        }
        List<String> upload = request.match("PUT", UPLOADS + "([A-Za-z0-9-]+)");
        if (upload != null) {
            return receive(upload.get(0), request);
        }
        if (request.path().startsWith("/rest/") && request.header("linkedin-version") == null) {
            return error(
                    400,
                    0,
                    "VERSION_MISSING",
                    "A version must be present. Please specify a version by adding the" + " LinkedIn-Version header.");
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID
                && (request.path().startsWith("/rest/") || request.path().startsWith("/v2/"))) {
            return unauthorized(state);
        }
        if (request.is("GET", "/v2/userinfo")) {
            return json(
                    200,
                    object().put("sub", MEMBER_ID)
                            .put("name", MEMBER_NAME)
                            .put("given_name", "Fay")
                            .put("family_name", "Kerr")
                            .put("picture", "https://media.licdn.com/dms/image/fake/profile.jpg")
                            .put("email", "fay.kerr@example.com")
                            .put("email_verified", true)
                            .set("locale", object().put("country", "US").put("language", "en")));
        }
        if (request.is("GET", "/rest/organizationAcls")) {
            ObjectNode body = object();
            body.putArray("elements")
                    .addObject()
                    .put("roleAssignee", PERSON_URN)
                    .put("state", "APPROVED")
                    .put("role", "ADMINISTRATOR")
                    .put("organization", ORGANIZATION_URN);
            body.putObject("paging").put("count", 100).put("start", 0).putArray("links");
            return json(200, body);
        }
        List<String> organization = request.match("GET", "/rest/organizations/([0-9]+)");
        if (organization != null) {
            if (!ORGANIZATION_ID.equals(organization.get(0))) {
                return error(404, 0, "NOT_FOUND", "Not Found");
            }
            return json(
                    200,
                    object().put("id", Long.parseLong(ORGANIZATION_ID))
                            .put("localizedName", ORGANIZATION_NAME)
                            .put("vanityName", "herald-fake-industries"));
        }
        if (request.is("POST", "/rest/posts")) {
            return createPost(request, grant(request));
        }
        if (request.is("POST", "/rest/(images|videos)")
                && "initializeUpload".equals(request.queryParameter("action"))) {
            return initializeUpload(request, request.path().endsWith("videos"));
        }
        if (request.is("POST", "/rest/videos") && "finalizeUpload".equals(request.queryParameter("action"))) {
            return finalizeUpload(request);
        }
        List<String> video = request.match("GET", "/rest/videos/(urn%3Ali%3Avideo%3A[A-Za-z0-9_-]+)");
        if (video != null) {
            Media found = media.get(URLDecoder.decode(video.get(0), StandardCharsets.UTF_8));
            if (found == null) {
                return error(404, 0, "NOT_FOUND", "Not Found");
            }
            return json(
                    200,
                    object().put("id", found.urn()).put("owner", found.owner()).put("status", found.status()));
        }
        if (request.is("GET", "/rest/posts")) {
            return postsByAuthor(request, grant(request));
        }
        List<String> comments = request.match("GET", "/rest/socialActions/([^/]+)/comments");
        if (comments != null) {
            return listComments(request, grant(request), URLDecoder.decode(comments.get(0), StandardCharsets.UTF_8));
        }
        comments = request.match("POST", "/rest/socialActions/([^/]+)/comments");
        if (comments != null) {
            return createComment(request, grant(request), URLDecoder.decode(comments.get(0), StandardCharsets.UTF_8));
        }
        List<String> socialActions = request.match("GET", "/rest/socialActions/([^/]+)");
        if (socialActions != null) {
            return socialActions(
                    request, grant(request), URLDecoder.decode(socialActions.get(0), StandardCharsets.UTF_8));
        }
        return notFound(request);
    }

    private FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_id"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(
                        platform(), form.get("code"), form.get("client_id"), form.get("redirect_uri"), null);
                String grantId = FakeIds.alphanumeric(16);
                ObjectNode answer = tokenAnswer(grantId, code.scopes());
                answer.put(
                        "refresh_token",
                        tokens.issueRefresh(
                                platform(),
                                grantId,
                                MEMBER_ID,
                                code.scopes(),
                                REFRESH_LIFETIME,
                                FakeIds.token("AQX", 160)));
                answer.put("refresh_token_expires_in", REFRESH_LIFETIME.toSeconds());
                if (code.scopes().contains("openid")) {
                    answer.put(
                            "id_token",
                            idToken("https://www.linkedin.com/oauth", code.clientId(), MEMBER_ID, MEMBER_NAME));
                }
                return json(200, answer);
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (tokens.state(platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(
                            400, "invalid_grant", "The provided refresh token is invalid, expired or revoked.");
                }
                IssuedGrant grant = tokens.grant(platform(), refreshToken);
                ObjectNode answer = tokenAnswer(grant.grantId(), grant.scopes());
                // LinkedIn keeps the refresh token; it answers it again with its remaining lifetime.
                answer.put("refresh_token", refreshToken);
                answer.put(
                        "refresh_token_expires_in",
                        Math.max(
                                0,
                                Duration.between(Instant.now(), grant.expiresAt())
                                        .toSeconds()));
                return json(200, answer);
            }
            throw new OAuthRefusal(
                    400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
        } catch (OAuthRefusal refusal) {
            return json(
                    refusal.status(),
                    object().put("error", refusal.error()).put("error_description", refusal.getMessage()));
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes) {
        ObjectNode answer = object();
        answer.put(
                "access_token",
                tokens.issueAccess(platform(), grantId, MEMBER_ID, scopes, ACCESS_LIFETIME, FakeIds.token("AQV", 180)));
        answer.put("expires_in", ACCESS_LIFETIME.toSeconds());
        answer.put("scope", String.join(",", scopes));
        answer.put("token_type", "Bearer");
        return answer;
    }

    private FakeResponse revoke(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_id"), form.get("client_secret"));
        } catch (OAuthRefusal refusal) {
            return json(
                    refusal.status(),
                    object().put("error", refusal.error()).put("error_description", refusal.getMessage()));
        }
        IssuedGrant grant = tokens.grant(platform(), form.get("token"));
        if (grant != null) {
            tokens.revokeGrant(grant.grantId());
        }
        return FakeResponse.empty(200);
    }

    private FakeResponse createPost(FakeRequest request, IssuedGrant grant) {
        JsonNode post = jsonBody(request);
        if (post == null) {
            return error(400, 0, "BAD_REQUEST", "The request body is not a JSON object.");
        }
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required by the Posts API.");
        }
        String author = post.path("author").asText("");
        if (!PERSON_URN.equals(author) && !ORGANIZATION_URN.equals(author)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE."
                            + request.header("linkedin-version"));
        }
        String scope = PERSON_URN.equals(author) ? "w_member_social" : "w_organization_social";
        if (!grant.scopes().contains(scope)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE."
                            + request.header("linkedin-version") + " (the token lacks " + scope + ")");
        }
        for (String field : List.of("commentary", "visibility", "distribution", "lifecycleState")) {
            if (!post.hasNonNull(field)) {
                return error(
                        422,
                        0,
                        "UNPROCESSABLE_ENTITY",
                        "/" + field + " :: field is required but not found and has no" + " default value");
            }
        }
        String mediaUrn = post.path("content").path("media").path("id").asText(null);
        if (mediaUrn != null) {
            Media attached = media.get(mediaUrn);
            if (attached == null
                    || !"AVAILABLE".equals(attached.status())
                    || !attached.owner().equals(author)) {
                return error(
                        422,
                        0,
                        "UNPROCESSABLE_ENTITY",
                        "/content/media/id :: " + mediaUrn + " is not an available upload of the author");
            }
        }
        String urn = "urn:li:share:" + FakeIds.digits(19);
        long now = Instant.now().toEpochMilli();
        ObjectNode stored = ((ObjectNode) post.deepCopy())
                .put("id", urn)
                .put("createdAt", now)
                .put("lastModifiedAt", now)
                .put("publishedAt", now);
        publish(stored);
        return FakeResponse.empty(201).withHeader("x-restli-id", urn).withHeader("x-linkedin-id", urn);
    }

    /** Registers an image or a video of the owner; its upload URL(s) on the host the caller reached the fake at. */
    private FakeResponse initializeUpload(FakeRequest request, boolean video) {
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required.");
        }
        JsonNode body = jsonBody(request);
        JsonNode initialize = body == null ? null : body.path("initializeUploadRequest");
        String owner = initialize == null ? "" : initialize.path("owner").asText("");
        if (!PERSON_URN.equals(owner) && !ORGANIZATION_URN.equals(owner)) {
            return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: the owner " + owner);
        }
        String base = "http://" + request.header("host") + "/" + platform() + UPLOADS;
        long expiresAt = Instant.now().plus(Duration.ofDays(1)).toEpochMilli();
        ObjectNode value = object();
        if (!video) {
            String urn = "urn:li:image:" + FakeIds.alphanumeric(19);
            String uploadId = FakeIds.alphanumeric(24);
            media.put(urn, new Media(urn, owner, "WAITING_UPLOAD", List.of(uploadId)));
            uploads.put(uploadId, urn);
            value.put("uploadUrlExpiresAt", expiresAt)
                    .put("uploadUrl", base + uploadId)
                    .put("image", urn);
            return json(200, object().set("value", value));
        }
        long size = initialize.path("fileSizeBytes").asLong(0);
        if (size <= 0) {
            return error(422, 0, "UNPROCESSABLE_ENTITY", "/initializeUploadRequest/fileSizeBytes :: must be positive");
        }
        String urn = "urn:li:video:" + FakeIds.alphanumeric(19);
        List<String> parts = new ArrayList<>();
        ArrayNode instructions = value.put("uploadUrlsExpireAt", expiresAt)
                .put("video", urn)
                .put("uploadToken", "")
                .putArray("uploadInstructions");
        for (long first = 0; first < size; first += VIDEO_PART_BYTES) {
            String uploadId = FakeIds.alphanumeric(24);
            parts.add(uploadId);
            uploads.put(uploadId, urn);
            instructions
                    .addObject()
                    .put("uploadUrl", base + uploadId)
                    .put("firstByte", first)
                    .put("lastByte", Math.min(size, first + VIDEO_PART_BYTES) - 1);
        }
        media.put(urn, new Media(urn, owner, "WAITING_UPLOAD", List.copyOf(parts)));
        return json(200, object().set("value", value));
    }

    /** Bytes for an upload URL: an image is then available; a video part answers its ETag for the finalize call. */
    private FakeResponse receive(String uploadId, FakeRequest request) {
        String urn = uploads.get(uploadId);
        ReceivedBytes bytes = request.upload();
        if (urn == null || bytes == null || bytes.size() == 0) {
            return error(400, 0, "BAD_REQUEST", "No upload is waiting at this URL, or it carried no bytes.");
        }
        if (urn.startsWith("urn:li:image:")) {
            media.computeIfPresent(urn, (key, image) -> image.withStatus("AVAILABLE"));
            return FakeResponse.empty(201);
        }
        String etag = "\"" + bytes.sha256().substring(0, 32) + "\"";
        partEtags.put(uploadId, etag);
        return FakeResponse.empty(200).withHeader("ETag", etag);
    }

    private FakeResponse finalizeUpload(FakeRequest request) {
        JsonNode body = jsonBody(request);
        JsonNode finalize = body == null ? null : body.path("finalizeUploadRequest");
        Media video = finalize == null ? null : media.get(finalize.path("video").asText(""));
        if (video == null) {
            return error(404, 0, "NOT_FOUND", "Not Found");
        }
        List<String> expected = video.parts().stream().map(partEtags::get).toList();
        List<String> given = new ArrayList<>();
        finalize.path("uploadedPartIds").forEach(id -> given.add(id.asText()));
        if (!expected.equals(given)) {
            return error(
                    400,
                    0,
                    "BAD_REQUEST",
                    "/finalizeUploadRequest/uploadedPartIds :: the parts' ETags, in order, were " + "expected ("
                            + given.size() + " of " + expected.size() + " given)");
        }
        media.put(video.urn(), video.withStatus("AVAILABLE"));
        return FakeResponse.empty(200);
    }

    private FakeResponse postsByAuthor(FakeRequest request, IssuedGrant grant) {
        if (!"author".equals(request.queryParameter("q"))) {
            return error(400, 0, "BAD_REQUEST", "Only the author finder (q=author) is faked.");
        }
        String author = request.queryParameter("author");
        String scope = PERSON_URN.equals(author) ? "r_member_social" : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.FINDER-author."
                            + request.header("linkedin-version"));
        }
        int count = request.intQueryParameter("count", 10);
        ObjectNode body = object();
        ArrayNode elements = body.putArray("elements");
        publishedWhere(post -> post.path("author").asText("").equals(author)).stream()
                .limit(count)
                .forEach(elements::add);
        body.putObject("paging").put("start", 0).put("count", count).putArray("links");
        return json(200, body);
    }

    /**
     * A post's social actions summary (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/network-update-social-actions):
     * likes and comments as {@link PublishedMetrics} counts them, read with the scope that reads the author's posts.
     */
    private FakeResponse socialActions(FakeRequest request, IssuedGrant grant, String urn) {
        ObjectNode post = publishedWhere(item -> urn.equals(item.path("id").asText())).stream()
                .findFirst()
                .orElse(null);
        if (post == null) {
            return error(404, 0, "NOT_FOUND", "Not Found");
        }
        String scope = PERSON_URN.equals(post.path("author").asText()) ? "r_member_social" : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: socialActions.GET." + request.header("linkedin-version"));
        }
        PublishedMetrics.Item numbers = PublishedMetrics.item(
                urn, Instant.ofEpochMilli(post.path("createdAt").asLong()), Instant.now());
        ObjectNode body = object();
        body.putObject("likesSummary")
                .put("totalLikes", numbers.likes())
                .put("aggregatedTotalLikes", numbers.likes())
                .put("likedByCurrentUser", false)
                .putArray("selectedLikes");
        body.putObject("commentsSummary")
                .put("totalFirstLevelComments", numbers.comments())
                .put("aggregatedTotalComments", numbers.comments())
                .put("commentsState", "OPEN")
                .putArray("selectedComments");
        return json(200, body.put("target", urn).put("$URN", "urn:li:socialActions:" + urn));
    }

    /** What a social-actions path names: a post (by its URN or its activity's), or a comment on one. */
    private record Target(ObjectNode post, FakeComment comment) {}

    private Target target(String urn) {
        Matcher commentUrn = COMMENT_URN.matcher(urn);
        for (ObjectNode post : publishedWhere(item -> true)) {
            String postUrn = post.path("id").asText();
            if (urn.equals(postUrn) || urn.equals(activity(postUrn))) {
                return new Target(post, null);
            }
            if (commentUrn.matches()
                    && (commentUrn.group(1).equals(postUrn)
                            || commentUrn.group(1).equals(activity(postUrn)))) {
                return comments(post).stream()
                        .filter(comment -> comment.id().equals(commentUrn.group(2)))
                        .findFirst()
                        .map(comment -> new Target(post, comment))
                        .orElse(null);
            }
        }
        return null;
    }

    /**
     * The comments on a post (its URN, or its activity's) or nested under a comment (its comment URN), newest first:
     * {@code start} and {@code count} (10, at most 100) page through them ({@code paging.total}, a {@code next} link).
     * Each is LinkedIn's comment object: {@code id}, {@code commentUrn} ({@code urn:li:comment:(<activity>,<id>)}, the
     * URN a reply targets) and {@code $URN}, {@code object} (the post's activity), {@code actor} (a member's or
     * organization's URN; LinkedIn gives no names), {@code created}/{@code lastModified}, {@code message.text}, a
     * nested one's {@code parentComment}, and summaries ({@code commentsSummary} counts a top-level comment's nested
     * ones, which only the comment's own listing shows). The comments are the post's {@link SeededComments} and those
     * posted through the fake. Read with the scope that reads the post's author (as {@link #socialActions}); a URN that
     * names nothing is 404.
     */
    private FakeResponse listComments(FakeRequest request, IssuedGrant grant, String urn) {
        Target target = target(urn);
        if (target == null) {
            return error(404, 0, "NOT_FOUND", "Not Found");
        }
        String scope =
                PERSON_URN.equals(target.post().path("author").asText()) ? "r_member_social" : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.FINDER." + request.header("linkedin-version"));
        }
        List<FakeComment> all = comments(target.post());
        List<FakeComment> listed = new ArrayList<>(
                target.comment() == null
                        ? all.stream().filter(FakeComment::topLevel).toList()
                        : target.comment().topLevel()
                                ? repliesTo(all, target.comment().id())
                                : List.<FakeComment>of());
        Collections.reverse(listed);
        int start = Math.min(listed.size(), offset(request.queryParameter("start")));
        int count = Math.min(100, request.intQueryParameter("count", 10));
        ObjectNode body = object();
        ArrayNode elements = body.putArray("elements");
        String postUrn = target.post().path("id").asText();
        listed.subList(start, Math.min(listed.size(), start + count))
                .forEach(comment -> elements.add(shownComment(postUrn, comment, all)));
        ObjectNode paging =
                body.putObject("paging").put("start", start).put("count", count).put("total", listed.size());
        ArrayNode links = paging.putArray("links");
        if (start + count < listed.size()) {
            links.addObject()
                    .put("type", "application/json")
                    .put("rel", "next")
                    .put(
                            "href",
                            "/rest/socialActions/" + URLEncoder.encode(urn, StandardCharsets.UTF_8) + "/comments?count="
                                    + count + "&start=" + (start + count));
        }
        return json(200, body);
    }

    private ObjectNode shownComment(String postUrn, FakeComment comment, List<FakeComment> all) {
        String activity = activity(postUrn);
        String urn = commentUrn(activity, comment.id());
        long time = comment.createdAt().toEpochMilli();
        ObjectNode shown = object().put("actor", comment.authorId())
                .put("commentUrn", urn)
                .put("id", comment.id())
                .put("object", activity);
        if (!comment.topLevel()) {
            shown.put("parentComment", commentUrn(activity, comment.parentId()));
        }
        shown.putObject("created").put("actor", comment.authorId()).put("time", time);
        shown.putObject("lastModified").put("actor", comment.authorId()).put("time", time);
        shown.putObject("message").put("text", comment.text()).putArray("attributes");
        shown.putObject("likesSummary")
                .put("totalLikes", 0)
                .put("aggregatedTotalLikes", 0)
                .put("likedByCurrentUser", false)
                .putArray("selectedLikes");
        List<FakeComment> nested = repliesTo(all, comment.id());
        ArrayNode selected = shown.putObject("commentsSummary")
                .put("totalFirstLevelComments", nested.size())
                .put("aggregatedTotalComments", nested.size())
                .putArray("selectedComments");
        nested.forEach(reply -> selected.add(commentUrn(activity, reply.id())));
        return shown.put("$URN", urn);
    }

    /**
     * A comment as {@code actor} (the member, or the organization it administers, with {@code w_member_social} or
     * {@code w_organization_social}) on the post or comment in the path: {@code object} is the post's activity (or the
     * post's URN), {@code message.text} the text, and on a comment {@code parentComment} is that comment's URN (a
     * comment on a nested one joins its top-level comment, as Herald threads them). 201 with the comment and its id in
     * {@code x-restli-id}.
     */
    private FakeResponse createComment(FakeRequest request, IssuedGrant grant, String urn) {
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required.");
        }
        JsonNode body = jsonBody(request);
        if (body == null) {
            return error(400, 0, "BAD_REQUEST", "The request body is not a JSON object.");
        }
        Target target = target(urn);
        if (target == null) {
            return error(404, 0, "NOT_FOUND", "Not Found");
        }
        String actor = body.path("actor").asText("");
        if (!PERSON_URN.equals(actor) && !ORGANIZATION_URN.equals(actor)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.CREATE." + request.header("linkedin-version") + " (as "
                            + actor + ")");
        }
        String scope = PERSON_URN.equals(actor) ? "w_member_social" : "w_organization_social";
        if (!grant.scopes().contains(scope)) {
            return error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.CREATE." + request.header("linkedin-version")
                            + " (the token lacks " + scope + ")");
        }
        String postUrn = target.post().path("id").asText();
        String object = body.path("object").asText("");
        if (!object.equals(postUrn) && !object.equals(activity(postUrn))) {
            return error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/object :: must be the commented post's URN or activity, not " + object);
        }
        String parentComment = body.path("parentComment").asText(null);
        if (target.comment() == null ? parentComment != null : !urn.equals(parentComment)) {
            return error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/parentComment :: must be the comment in the path when commenting on a"
                            + " comment, and absent otherwise");
        }
        String text = body.path("message").path("text").asText("");
        if (text.isBlank()) {
            return error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/message/text :: field is required but not found and has no default" + " value");
        }
        String parentId = target.comment() == null
                ? null
                : target.comment().topLevel()
                        ? target.comment().id()
                        : target.comment().parentId();
        FakeComment created = keepComment(new FakeComment(
                FakeIds.digits(19),
                postUrn,
                parentId,
                text,
                actor,
                PERSON_URN.equals(actor) ? MEMBER_NAME : ORGANIZATION_NAME,
                Instant.now(),
                true));
        return json(201, shownComment(postUrn, created, comments(target.post())))
                .withHeader("x-restli-id", created.id())
                .withHeader("x-linkedin-id", created.id());
    }

    /** A post's comments, oldest first; seeded ones by other members, at the post's creation, with 19-digit ids. */
    private List<FakeComment> comments(ObjectNode post) {
        String postUrn = post.path("id").asText();
        Instant createdAt = Instant.ofEpochMilli(post.path("createdAt").asLong());
        return commentsOn(
                postUrn,
                seed -> new FakeComment(
                        SeededComments.digits(postUrn, seed.index(), 19),
                        postUrn,
                        seed.parentIndex() == null ? null : SeededComments.digits(postUrn, seed.parentIndex(), 19),
                        seed.text(),
                        seed.author().linkedinUrn(),
                        seed.author().name(),
                        createdAt,
                        false));
    }

    /**
     * The activity of a post, which its comments name as their {@code object} and in their URNs, as LinkedIn's do:
     * {@code urn:li:activity:} and 19 digits derived from the post's URN (the seed index -1 is no comment's).
     */
    private static String activity(String postUrn) {
        return "urn:li:activity:" + SeededComments.digits(postUrn, -1, 19);
    }

    /** Rest.li's {@code start}: 0 or more, 0 when absent or unreadable. */
    private static int offset(String start) {
        try {
            return start == null ? 0 : Math.max(0, Integer.parseInt(start));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String commentUrn(String activity, String commentId) {
        return "urn:li:comment:(" + activity + "," + commentId + ")";
    }

    private FakeResponse unauthorized(IssuedTokens.State state) {
        if (state == IssuedTokens.State.EXPIRED) {
            return error(401, 65602, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired");
        }
        if (state == IssuedTokens.State.REVOKED) {
            return error(
                    401, 65601, "REVOKED_ACCESS_TOKEN", "The token used in the request has been revoked by the user");
        }
        return error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        return error(
                failure.statusOr(429),
                101,
                "TOO_MANY_REQUESTS",
                "Resource level throttle APPLICATION DAY limit for calls to this resource is reached.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return error(
                status,
                0,
                status == 504 ? "GATEWAY_TIMEOUT" : "INTERNAL_SERVER_ERROR",
                status == 504 ? "Gateway Timeout" : "Internal Server Error");
    }

    private FakeResponse error(int status, int serviceErrorCode, String code, String message) {
        ObjectNode body = object().put("status", status);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        return json(status, body.put("code", code).put("message", message));
    }
}
