package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Instagram API with Instagram Login below {@code /instagram}; its three hosts share the prefix (their paths do not
 * overlap).
 * <ul>
 * <li>Business Login: {@code /oauth/authorize}, the code exchanged at {@code POST /oauth/access_token} for a
 * short-lived token ({@code {"data": [{access_token, user_id, permissions}]}}), swapped at
 * {@code GET /access_token} ({@code ig_exchange_token}) for a 60-day token that {@code GET /refresh_access_token}
 * ({@code ig_refresh_token}) renews; no refresh tokens. {@code /{version}/me} is one professional account.</li>
 * <li>Content publishing (https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * {@code POST /{version}/{user}/media} makes a container ({@code image_url}, or {@code video_url} with
 * {@code media_type} {@code REELS}), {@code GET /{version}/{container}?fields=status_code} reports it
 * ({@code FINISHED} at once, {@code ERROR} when a {@code processing_error} failure met its creation),
 * {@code POST /{version}/{user}/media_publish} publishes it, {@code GET /{version}/{media}} and
 * {@code GET /{version}/{user}/media} read the result.</li>
 * <li>Comments (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/comments,
 * .../instagram-comment/replies): {@code GET /{version}/{media}/comments} (top-level comments, newest first, with
 * their {@code replies}), {@code GET /{version}/{comment}/replies}, and {@code POST} to either with {@code message}
 * commenting as the account; see {@link #listComments}.</li>
 * </ul>
 * Parameters are read from the JSON body, the form or the query, as Graph accepts all three; tokens from a Bearer
 * header or {@code access_token}.
 */
@Singleton
public class InstagramFake extends StatefulPlatformFake {
    /** Reading and replying to comments both take it (Instagram API with Instagram Login, comment moderation). */
    private static final String MANAGE_COMMENTS = "instagram_business_manage_comments";

    public static final String USER_ID = "17841400000000001";
    public static final String APP_SCOPED_ID = "9876543210123456";
    public static final String USERNAME = "heraldfake.studio";
    private static final String VERSION = "(v[0-9]+\\.[0-9]+)";
    private static final Duration LONG_LIVED = Duration.ofDays(60);
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    /** What a comment listing answers without {@code fields}, and {@code replies} without braces. */
    private static final List<GraphFields> COMMENT_DEFAULT_FIELDS = GraphFields.parse("timestamp,text,id");

    private static final Set<String> COMMENT_FIELDS = Set.of(
            "id", "text", "username", "timestamp", "like_count", "hidden", "from", "media", "parent_id", "replies");

    private final Map<String, ObjectNode> containers = new ConcurrentHashMap<>();

    public InstagramFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public String platform() {
        return "instagram";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/oauth/authorize/?");
    }

    @Override
    public boolean actsOn(FailureKind kind, FakeRequest request) {
        if (kind == FailureKind.PROCESSING_ERROR) {
            return request.is("POST", "/" + VERSION + "/[0-9]+/media");
        }
        return super.actsOn(kind, request);
    }

    @Override
    public String accessToken(FakeRequest request) {
        String bearer = request.bearerToken();
        return bearer != null ? bearer : parameter(request, "access_token");
    }

    @Override
    public void reset() {
        super.reset();
        containers.clear();
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("POST", "/oauth/access_token")) {
            return exchangeCode(request);
        }
        boolean exchange = request.is("GET", "/access_token");
        boolean refresh = request.is("GET", "/refresh_access_token");
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return json(400, GraphErrorShapes.invalidToken(object(), state));
        }
        IssuedGrant grant = grant(request);
        List<String> path;
        if (exchange || refresh) {
            return longLivedToken(request, grant, exchange);
        }
        if (request.is("GET", "/" + VERSION + "/me")) {
            return json(200, me(request));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/insights");
        if (path != null) {
            return insights(request, grant, path.get(1));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/media");
        if (path != null) {
            return createContainer(request, grant, path.get(1));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/media_publish");
        if (path != null) {
            return publishContainer(request, grant, path.get(1));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/media");
        if (path != null) {
            return recentMedia(request, grant, path.get(1));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/(comments|replies)");
        if (path != null) {
            return listComments(request, grant, path.get(1), path.get(2));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/(comments|replies)");
        if (path != null) {
            return createComment(request, grant, path.get(1), path.get(2));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)");
        if (path != null) {
            return node(request, path.get(1));
        }
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "IGApiException",
                        100,
                        33,
                        "Unsupported " + request.method().toLowerCase() + " request. (the fake has no " + request.path()
                                + ")",
                        false));
    }

    private FakeResponse exchangeCode(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_id"), form.get("client_secret"));
            if (!"authorization_code".equals(form.get("grant_type"))) {
                throw new OAuthRefusal(400, "OAuthException", "Invalid grant_type");
            }
            AuthorizationServer.PendingCode code = authorization.redeem(
                    platform(), form.get("code"), form.get("client_id"), form.get("redirect_uri"), null);
            String token = tokens.issueAccess(
                    platform(),
                    FakeIds.alphanumeric(16),
                    USER_ID,
                    code.scopes(),
                    Duration.ofHours(1),
                    FakeIds.token("IGAA", 160));
            ObjectNode body = object();
            body.putArray("data")
                    .addObject()
                    .put("access_token", token)
                    .put("user_id", USER_ID)
                    .put("permissions", String.join(",", code.scopes()));
            return json(200, body);
        } catch (OAuthRefusal refusal) {
            return json(
                    400,
                    object().put("error_type", "OAuthException")
                            .put("code", 400)
                            .put("error_message", refusal.getMessage()));
        }
    }

    private FakeResponse longLivedToken(FakeRequest request, IssuedGrant grant, boolean exchange) {
        if (exchange) {
            if (!"ig_exchange_token".equals(request.queryParameter("grant_type"))
                    || !authorization
                            .client(platform())
                            .clientSecret()
                            .equals(request.queryParameter("client_secret"))) {
                return json(
                        400,
                        GraphErrorShapes.error(
                                object(),
                                "OAuthException",
                                101,
                                null,
                                "Error validating client secret or grant_type.",
                                false));
            }
        } else if (!"ig_refresh_token".equals(request.queryParameter("grant_type"))) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(), "OAuthException", 100, null, "grant_type must be ig_refresh_token", false));
        }
        String token = tokens.issueAccess(
                platform(), grant.grantId(), grant.subject(), grant.scopes(), LONG_LIVED, FakeIds.token("IGAA", 160));
        return json(
                200,
                object().put("access_token", token)
                        .put("token_type", "bearer")
                        .put("expires_in", LONG_LIVED.toSeconds()));
    }

    private FakeResponse createContainer(FakeRequest request, IssuedGrant grant, String user) {
        FakeResponse refused = refuseOtherAccount(grant, user, "instagram_business_content_publish");
        if (refused != null) {
            return refused;
        }
        String imageUrl = parameter(request, "image_url");
        String videoUrl = parameter(request, "video_url");
        String mediaType = parameter(request, "media_type");
        if (imageUrl == null && !(videoUrl != null && ("REELS".equals(mediaType) || "VIDEO".equals(mediaType)))) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "IGApiException",
                            100,
                            2207052,
                            "The media could not be fetched from this URI: image_url or video_url with media_type REELS is required",
                            false));
        }
        String id = FakeIds.digits(17);
        boolean fails = request.failure() != null && request.failure().getKind() == FailureKind.PROCESSING_ERROR;
        ObjectNode container = object().put("id", id)
                .put("user", user)
                .put("media_type", imageUrl != null ? "IMAGE" : mediaType)
                .put("status_code", fails ? "ERROR" : "FINISHED")
                .put(
                        "status",
                        fails
                                ? "Error: Media upload has failed with error code 2207026"
                                : "Finished: Media has been uploaded and it is ready to be published.");
        putIfPresent(container, "image_url", imageUrl);
        putIfPresent(container, "video_url", videoUrl);
        putIfPresent(container, "caption", parameter(request, "caption"));
        putIfPresent(container, "alt_text", parameter(request, "alt_text"));
        containers.put(id, container);
        return json(200, object().put("id", id));
    }

    private FakeResponse publishContainer(FakeRequest request, IssuedGrant grant, String user) {
        FakeResponse refused = refuseOtherAccount(grant, user, "instagram_business_content_publish");
        if (refused != null) {
            return refused;
        }
        ObjectNode container = containers.get(String.valueOf(parameter(request, "creation_id")));
        if (container == null || !user.equals(container.path("user").asText())) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            100,
                            2207001,
                            "Invalid parameter: creation_id is not a container of this account",
                            false));
        }
        if (!"FINISHED".equals(container.path("status_code").asText())) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            9007,
                            2207027,
                            "Media ID is not available: the container is "
                                    + container.path("status_code").asText(),
                            false));
        }
        container.put("status_code", "PUBLISHED");
        String mediaId = FakeIds.digits(17);
        ObjectNode media = object().put("id", mediaId)
                .put("media_type", container.path("media_type").asText())
                .put("permalink", "https://www.instagram.com/p/" + FakeIds.token("C", 10) + "/")
                .put("timestamp", OffsetDateTime.now(ZoneOffset.UTC).format(GRAPH_TIME))
                .put("username", USERNAME)
                .put("container_id", container.path("id").asText());
        if (container.hasNonNull("caption")) {
            media.put("caption", container.get("caption").asText());
        }
        media.put(
                "media_url",
                container
                        .path(container.hasNonNull("image_url") ? "image_url" : "video_url")
                        .asText());
        publish(media);
        return json(200, object().put("id", mediaId));
    }

    private FakeResponse recentMedia(FakeRequest request, IssuedGrant grant, String user) {
        FakeResponse refused = refuseOtherAccount(grant, user, "instagram_business_basic");
        if (refused != null) {
            return refused;
        }
        int limit = request.intQueryParameter("limit", 25);
        ObjectNode body = object();
        ArrayNode data = body.putArray("data");
        published().stream().limit(limit).forEach(item -> data.add(selected((ObjectNode) item, request)));
        body.putObject("paging")
                .putObject("cursors")
                .put("before", "QVFIUmJlZm9yZQ")
                .put("after", "QVFIUmFmdGVy");
        return json(200, body);
    }

    /**
     * The professional account ({@code /me}): without {@code fields} its id, user id, username, name and account type;
     * with them, the fields asked for (and {@code id}), the counts among them {@link PublishedMetrics}'s account numbers
     * over the media it published ({@code followers_count}, {@code follows_count}, {@code media_count}).
     */
    private ObjectNode me(FakeRequest request) {
        ObjectNode me = object().put("id", APP_SCOPED_ID)
                .put("user_id", USER_ID)
                .put("username", USERNAME)
                .put("name", "Herald Fake Studio")
                .put("account_type", "BUSINESS");
        if (parameter(request, "fields") == null) {
            return me;
        }
        Instant now = Instant.now();
        PublishedMetrics.Account counts = PublishedMetrics.account(
                published().stream().map(media -> numbers(media, now)).toList());
        me.put("followers_count", counts.followers())
                .put("follows_count", counts.following())
                .put("media_count", counts.posts());
        return selected(me, request);
    }

    /**
     * A media object's insights (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights):
     * each metric asked for, lifetime, in the order asked, {@link PublishedMetrics}'s numbers ({@code saved} its saves).
     * A metric the fake does not know is Graph's #100; media the account did not publish, the "does not exist" error.
     */
    private FakeResponse insights(FakeRequest request, IssuedGrant grant, String mediaId) {
        JsonNode media = published().stream()
                .filter(item -> mediaId.equals(item.path("id").asText()))
                .findFirst()
                .orElse(null);
        if (media == null || !grant.subject().equals(USER_ID)) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "GraphMethodException",
                            100,
                            33,
                            "Unsupported get request. Object with ID '" + mediaId + "' does not exist",
                            false));
        }
        String metric = parameter(request, "metric");
        PublishedMetrics.Item numbers = numbers(media, Instant.now());
        ObjectNode body = object();
        ArrayNode data = body.putArray("data");
        for (String name : metric == null ? new String[0] : metric.split(",")) {
            Long value = switch (name.trim()) {
                case "views", "impressions" -> numbers.views();
                case "reach" -> numbers.reach();
                case "likes" -> numbers.likes();
                case "comments" -> numbers.comments();
                case "shares" -> numbers.shares();
                case "saved" -> numbers.saves();
                case "total_interactions" -> numbers.likes() + numbers.comments() + numbers.shares() + numbers.saves();
                default -> null;
            };
            if (value == null) {
                return json(
                        400,
                        GraphErrorShapes.error(
                                object(),
                                "OAuthException",
                                100,
                                null,
                                "(#100) metric[" + data.size()
                                        + "] must be one of the following values: views, reach, likes, comments, shares, saved,"
                                        + " total_interactions",
                                false));
            }
            ObjectNode insight = data.addObject().put("name", name.trim()).put("period", "lifetime");
            insight.putArray("values").addObject().put("value", value);
            insight.put("id", mediaId + "/insights/" + name.trim() + "/lifetime");
        }
        if (data.isEmpty()) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(), "OAuthException", 100, null, "(#100) The parameter metric is required", false));
        }
        return json(200, body);
    }

    private static PublishedMetrics.Item numbers(JsonNode media, Instant now) {
        return PublishedMetrics.item(
                media.path("id").asText(),
                OffsetDateTime.parse(media.path("timestamp").asText(), GRAPH_TIME)
                        .toInstant(),
                now);
    }

    /**
     * {@code GET /{media}/comments}: the media's top-level comments, newest first; {@code GET /{comment}/replies}: a
     * top-level comment's replies, oldest first. {@code limit} (25, at most 100) and {@code after} page through them
     * ({@code paging.cursors}, {@code paging.next}). Fields: {@code id}, {@code text}, {@code username},
     * {@code timestamp}, {@code like_count}, {@code hidden}, {@code from}, {@code media}, {@code parent_id} (replies)
     * and {@code replies} (an edge, {@code {"data": [...]}} oldest first, its fields in braces); another is Graph's #100.
     * The comments are the media's {@link SeededComments} (by their Instagram usernames) and those the account posted.
     * Media or a comment the account does not have is Graph's "does not exist".
     */
    private FakeResponse listComments(FakeRequest request, IssuedGrant grant, String id, String edge) {
        if (!grant.scopes().contains(MANAGE_COMMENTS)) {
            return missingPermission(MANAGE_COMMENTS);
        }
        JsonNode media = "comments".equals(edge) ? publishedMedia(id, grant) : null;
        FakeComment comment = "replies".equals(edge) ? findComment(id, grant) : null;
        if (media == null && comment == null) {
            return doesNotExist("get", id, edge);
        }
        List<FakeComment> all = comments(media != null ? media : publishedMedia(comment.itemId(), grant));
        List<FakeComment> listed;
        if (media != null) {
            listed = new ArrayList<>(all.stream().filter(FakeComment::topLevel).toList());
            Collections.reverse(listed);
        } else {
            listed = repliesTo(all, comment.topLevel() ? comment.id() : "");
        }
        String fields = parameter(request, "fields");
        List<GraphFields> wanted = fields == null ? COMMENT_DEFAULT_FIELDS : GraphFields.parse(fields);
        String unknown = GraphFields.firstUnknown(wanted, COMMENT_FIELDS, "replies");
        if (unknown != null) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) Tried accessing nonexisting field (" + unknown + ") on node type (IGComment)",
                            false));
        }
        return graphCommentPage(request, parameter(request, "after"), listed, each -> shownComment(each, wanted, all));
    }

    private ObjectNode shownComment(FakeComment comment, List<GraphFields> fields, List<FakeComment> all) {
        ObjectNode shown = object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id" -> shown.put("id", comment.id());
                case "text" -> shown.put("text", comment.text());
                case "username" -> shown.put("username", comment.authorName());
                case "timestamp" ->
                    shown.put(
                            "timestamp",
                            comment.createdAt().atOffset(ZoneOffset.UTC).format(GRAPH_TIME));
                case "like_count" -> shown.put("like_count", 0);
                case "hidden" -> shown.put("hidden", false);
                case "from" ->
                    shown.putObject("from").put("id", comment.authorId()).put("username", comment.authorName());
                case "media" -> shown.putObject("media").put("id", comment.itemId());
                case "parent_id" -> {
                    if (!comment.topLevel()) {
                        shown.put("parent_id", comment.parentId());
                    }
                }
                default -> {
                    // replies: an edge of top-level comments only, present when there are some
                    List<FakeComment> replies = repliesTo(all, comment.id());
                    if (comment.topLevel() && !replies.isEmpty()) {
                        ArrayNode data = shown.putObject("replies").putArray("data");
                        List<GraphFields> asked =
                                field.subfields() == null ? COMMENT_DEFAULT_FIELDS : field.subfields();
                        replies.forEach(reply -> data.add(shownComment(reply, asked, all)));
                    }
                }
            }
        }
        return shown;
    }

    /**
     * {@code POST /{media}/comments} (a top-level comment) or {@code POST /{comment}/replies} (a reply; to a reply, it
     * joins the top-level comment, as Instagram documents), {@code message} in the query (or form, or JSON), as the
     * account. Answers {@code {"id"}}; the comment shows in later reads.
     */
    private FakeResponse createComment(FakeRequest request, IssuedGrant grant, String id, String edge) {
        if (!grant.scopes().contains(MANAGE_COMMENTS)) {
            return missingPermission(MANAGE_COMMENTS);
        }
        JsonNode media = "comments".equals(edge) ? publishedMedia(id, grant) : null;
        FakeComment comment = "replies".equals(edge) ? findComment(id, grant) : null;
        if (media == null && comment == null) {
            return doesNotExist("post", id, edge);
        }
        String message = parameter(request, "message");
        if (message == null || message.isBlank()) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(), "OAuthException", 100, null, "(#100) The parameter message is required.", false));
        }
        String itemId = media != null ? media.path("id").asText() : comment.itemId();
        String parentId = comment == null ? null : comment.topLevel() ? comment.id() : comment.parentId();
        FakeComment created = keepComment(new FakeComment(
                "18" + FakeIds.digits(15),
                itemId,
                parentId,
                message,
                USER_ID,
                USERNAME,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return json(200, object().put("id", created.id()));
    }

    /**
     * Media the account published, or null (another account's token sees none). Comments' ids are 17 digits starting
     * {@code 18}, as Instagram's are; seeded ones are dated at the media's publication.
     */
    private JsonNode publishedMedia(String id, IssuedGrant grant) {
        if (!USER_ID.equals(grant.subject())) {
            return null;
        }
        return published().stream()
                .filter(media -> id.equals(media.path("id").asText()))
                .findFirst()
                .orElse(null);
    }

    private List<FakeComment> comments(JsonNode media) {
        String mediaId = media.path("id").asText();
        Instant publishedAt = OffsetDateTime.parse(media.path("timestamp").asText(), GRAPH_TIME)
                .toInstant();
        return commentsOn(
                mediaId,
                seed -> new FakeComment(
                        seededCommentId(mediaId, seed.index()),
                        mediaId,
                        seed.parentIndex() == null ? null : seededCommentId(mediaId, seed.parentIndex()),
                        seed.text(),
                        seed.author().instagramId(),
                        seed.author().instagramUsername(),
                        publishedAt,
                        false));
    }

    private FakeComment findComment(String id, IssuedGrant grant) {
        if (!USER_ID.equals(grant.subject())) {
            return null;
        }
        for (JsonNode media : published()) {
            for (FakeComment comment : comments(media)) {
                if (comment.id().equals(id)) {
                    return comment;
                }
            }
        }
        return null;
    }

    private static String seededCommentId(String mediaId, int index) {
        return "18" + SeededComments.digits(mediaId, index, 15);
    }

    /** Graph's answer for an id that names nothing this edge belongs to. */
    private FakeResponse doesNotExist(String method, String id, String edge) {
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported " + method
                                + " request. Object with ID '" + id
                                + "' does not exist, cannot be loaded due to missing permissions, or does"
                                + " not support this operation (" + edge + ")",
                        false));
    }

    /** A container or a media object, with the fields asked for. */
    private FakeResponse node(FakeRequest request, String id) {
        ObjectNode container = containers.get(id);
        if (container != null) {
            return json(200, selected(container, request));
        }
        for (JsonNode media : published()) {
            if (id.equals(media.path("id").asText())) {
                return json(200, selected((ObjectNode) media, request));
            }
        }
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported get request. Object with ID '" + id + "' does not exist",
                        false));
    }

    private ObjectNode selected(ObjectNode item, FakeRequest request) {
        String fields = parameter(request, "fields");
        ObjectNode shown = object();
        for (String field : (fields == null ? "id" : fields + ",id").split(",")) {
            JsonNode value = item.get(field.trim());
            if (value != null) {
                shown.set(field.trim(), value);
            }
        }
        return shown;
    }

    private FakeResponse refuseOtherAccount(IssuedGrant grant, String user, String permission) {
        if (!user.equals(grant.subject())) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            100,
                            33,
                            "Unsupported request: the token does not belong to account " + user,
                            false));
        }
        if (!grant.scopes().contains(permission)) {
            return missingPermission(permission);
        }
        return null;
    }

    private FakeResponse missingPermission(String permission) {
        return json(
                403,
                GraphErrorShapes.error(
                        object(),
                        "OAuthException",
                        10,
                        null,
                        "(#10) Application does not have permission for this action (" + permission + ")",
                        false));
    }

    /** A parameter from the JSON body, the form or the query (Graph reads all three). */
    private String parameter(FakeRequest request, String name) {
        JsonNode body = jsonBody(request);
        if (body != null && body.hasNonNull(name)) {
            return body.get(name).asText();
        }
        String header = request.header("content-type");
        if (header != null
                && header.startsWith("application/x-www-form-urlencoded")
                && request.form().containsKey(name)) {
            return request.form().get(name);
        }
        return request.queryParameter(name);
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        return json(
                failure.statusOr(400),
                GraphErrorShapes.error(
                        object(), "OAuthException", 4, null, "(#4) Application request limit reached", true));
    }

    @Override
    public FakeResponse serverError(int status) {
        return json(
                status,
                GraphErrorShapes.error(
                        object(),
                        "OAuthException",
                        2,
                        null,
                        "An unexpected error has occurred. Please retry your request later.",
                        true));
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
