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
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Facebook below {@code /facebook}: the login dialog {@code /{version}/dialog/oauth} and the Graph API
 * {@code /{version}/...} (any {@code vNN.N}).
 * <ul>
 * <li>Facebook Login's manual flow: the code exchanged at {@code GET /oauth/access_token} for a short-lived user
 * token, swapped ({@code grant_type=fb_exchange_token}) for a 60-day one; {@code /me?fields=id,permissions};
 * {@code /me/accounts} lists the one Page the user manages with its Page token, which never expires but dies with
 * the user's grant; {@code DELETE /me/permissions} revokes it.</li>
 * <li>Pages publishing (https://developers.facebook.com/docs/pages-api/posts): {@code POST /{page}/feed}
 * ({@code message}, {@code link}), {@code /{page}/photos} ({@code url}) and {@code /{page}/videos}
 * ({@code file_url}), with the Page token; {@code GET /{page}/feed} and {@code /{page}/videos} list them.</li>
 * <li>Comments (https://developers.facebook.com/docs/graph-api/reference/object/comments): {@code GET /{object}/comments}
 * of a published post, photo or video (top-level comments, or with {@code filter=stream} replies too, each naming its
 * {@code parent}) or of a comment (its replies), and {@code POST /{object}/comments} ({@code message}) commenting as
 * the Page; see {@link #listComments}.</li>
 * </ul>
 * Tokens are read from {@code Authorization: Bearer} or the {@code access_token} parameter, as Graph accepts both.
 * Errors are Graph's; throttling is code 4 (32 for Page calls) with HTTP 400, as Graph answers it.
 */
@Singleton
public class FacebookGraphFake extends StatefulPlatformFake {
    public static final String USER_ID = "10229876543210987";
    public static final String PAGE_ID = "108765432109876";
    public static final String PAGE_NAME = "Herald Fake Bakery";
    private static final String VERSION = "(v[0-9]+\\.[0-9]+)";
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final String OBJECT_ID = "([0-9]+(?:_[0-9]+)?)";
    /** What a comment edge answers without {@code fields}, and what {@code parent} shows without braces. */
    private static final List<GraphFields> COMMENT_DEFAULT_FIELDS = GraphFields.parse("created_time,from,message,id");

    private static final Set<String> COMMENT_FIELDS = Set.of(
            "id",
            "message",
            "from",
            "created_time",
            "parent",
            "comment_count",
            "like_count",
            "is_hidden",
            "can_comment");

    public FacebookGraphFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public String platform() {
        return "facebook";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/" + VERSION + "/dialog/oauth");
    }

    @Override
    public String accessToken(FakeRequest request) {
        String bearer = request.bearerToken();
        if (bearer != null) {
            return bearer;
        }
        String parameter = request.queryParameter("access_token");
        return parameter != null ? parameter : request.form().get("access_token");
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("GET", "/" + VERSION + "/oauth/access_token")) {
            return token(request);
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return json(400, GraphErrorShapes.invalidToken(object(), state));
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/" + VERSION + "/me")) {
            ObjectNode me = object().put("id", grant.subject());
            ArrayNode permissions = me.putObject("permissions").putArray("data");
            grant.scopes()
                    .forEach(scope ->
                            permissions.addObject().put("permission", scope).put("status", "granted"));
            return json(200, me);
        }
        if (request.is("GET", "/" + VERSION + "/me/accounts")) {
            return pages(grant);
        }
        if (request.is("DELETE", "/" + VERSION + "/me/permissions")) {
            tokens.revokeGrant(grant.grantId());
            return json(200, object().put("success", true));
        }
        List<String> comments = request.match("GET", "/" + VERSION + "/" + OBJECT_ID + "/comments");
        if (comments != null) {
            return listComments(request, grant, comments.get(1));
        }
        comments = request.match("POST", "/" + VERSION + "/" + OBJECT_ID + "/comments");
        if (comments != null) {
            return createComment(request, grant, comments.get(1));
        }
        List<String> edge = request.match("POST", "/" + VERSION + "/([0-9]+)/(feed|photos|videos)");
        if (edge != null) {
            return create(request, grant, edge.get(1), edge.get(2));
        }
        edge = request.match("GET", "/" + VERSION + "/([0-9]+)/(feed|videos)");
        if (edge != null) {
            return list(request, grant, edge.get(1), edge.get(2));
        }
        List<String> node = request.match("GET", "/" + VERSION + "/([0-9]+(?:_[0-9]+)?)");
        if (node != null) {
            return node(request, node.get(1));
        }
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported " + request.method().toLowerCase() + " request. (the fake has no " + request.path()
                                + ")",
                        false));
    }

    private FakeResponse token(FakeRequest request) {
        try {
            authorization.authenticate(
                    platform(), request.queryParameter("client_id"), request.queryParameter("client_secret"));
            if ("fb_exchange_token".equals(request.queryParameter("grant_type"))) {
                String shortLived = request.queryParameter("fb_exchange_token");
                if (tokens.state(platform(), shortLived, false) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(
                            400, "invalid_grant", "Error validating access token: the token to exchange is invalid.");
                }
                IssuedGrant grant = tokens.grant(platform(), shortLived);
                return json(
                        200,
                        object().put(
                                        "access_token",
                                        tokens.issueAccess(
                                                platform(),
                                                grant.grantId(),
                                                USER_ID,
                                                grant.scopes(),
                                                Duration.ofDays(60),
                                                FakeIds.token("EAAG", 180)))
                                .put("token_type", "bearer")
                                .put("expires_in", Duration.ofDays(60).toSeconds()));
            }
            AuthorizationServer.PendingCode code = authorization.redeem(
                    platform(),
                    request.queryParameter("code"),
                    request.queryParameter("client_id"),
                    request.queryParameter("redirect_uri"),
                    null);
            String grantId = FakeIds.alphanumeric(16);
            return json(
                    200,
                    object().put(
                                    "access_token",
                                    tokens.issueAccess(
                                            platform(),
                                            grantId,
                                            USER_ID,
                                            code.scopes(),
                                            Duration.ofHours(2),
                                            FakeIds.token("EAAG", 180)))
                            .put("token_type", "bearer")
                            .put("expires_in", Duration.ofHours(2).toSeconds()));
        } catch (OAuthRefusal refusal) {
            // Graph answers code exchange problems as OAuthException code 100 (invalid parameter) or 101 (bad client).
            int code = "invalid_client".equals(refusal.error()) ? 101 : 100;
            return json(
                    400, GraphErrorShapes.error(object(), "OAuthException", code, null, refusal.getMessage(), false));
        }
    }

    private FakeResponse pages(IssuedGrant grant) {
        ObjectNode body = object();
        ArrayNode data = body.putArray("data");
        if (grant.scopes().contains("pages_show_list")) {
            String pageToken = tokens.issueAccess(
                    platform(), grant.grantId(), PAGE_ID, grant.scopes(), null, FakeIds.token("EAAG", 180));
            ObjectNode page = data.addObject()
                    .put("id", PAGE_ID)
                    .put("name", PAGE_NAME)
                    .put("username", "heraldfakebakery")
                    .put("access_token", pageToken)
                    .put("category", "Bakery");
            page.putArray("tasks")
                    .add("ANALYZE")
                    .add("ADVERTISE")
                    .add("MODERATE")
                    .add("CREATE_CONTENT")
                    .add("MANAGE");
        }
        body.putObject("paging")
                .putObject("cursors")
                .put("before", "QVFIUjFha2VCZAWZAvcmU")
                .put("after", "QVFIUjFha2VBZAWZAdGVy");
        return json(200, body);
    }

    private FakeResponse create(FakeRequest request, IssuedGrant grant, String page, String edge) {
        if (!page.equals(grant.subject())) {
            return json(
                    403,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with"
                                    + " sufficient administrative permission",
                            false));
        }
        if (!grant.scopes().containsAll(Set.of("pages_manage_posts", "pages_read_engagement"))) {
            return json(
                    403,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) The token lacks pages_manage_posts and pages_read_engagement",
                            false));
        }
        Map<String, String> fields = request.form();
        String now = OffsetDateTime.now(ZoneOffset.UTC).format(GRAPH_TIME);
        switch (edge) {
            case "feed": {
                if (blank(fields.get("message")) && blank(fields.get("link"))) {
                    return json(
                            400,
                            GraphErrorShapes.error(
                                    object(),
                                    "OAuthException",
                                    100,
                                    null,
                                    "(#100) Either message or link must be supplied",
                                    false));
                }
                String id = page + "_" + FakeIds.digits(16);
                ObjectNode post =
                        object().put("id", id).put("created_time", now).put("edge", "feed");
                putIfPresent(post, "message", fields.get("message"));
                putIfPresent(post, "link", fields.get("link"));
                publish(post);
                return json(200, object().put("id", id));
            }
            case "photos": {
                if (blank(fields.get("url"))) {
                    return json(
                            400,
                            GraphErrorShapes.error(
                                    object(), "OAuthException", 324, 2069019, "(#324) Requires upload file", false));
                }
                String photoId = FakeIds.digits(16);
                String postId = page + "_" + FakeIds.digits(16);
                ObjectNode post = object().put("id", postId)
                        .put("photo_id", photoId)
                        .put("created_time", now)
                        .put("edge", "photos")
                        .put("url", fields.get("url"));
                putIfPresent(post, "message", fields.get("message"));
                publish(post);
                return json(200, object().put("id", photoId).put("post_id", postId));
            }
            default: {
                if (blank(fields.get("file_url"))) {
                    return json(
                            400,
                            GraphErrorShapes.error(
                                    object(),
                                    "OAuthException",
                                    100,
                                    null,
                                    "(#100) file_url or source is required",
                                    false));
                }
                String videoId = FakeIds.digits(16);
                ObjectNode video = object().put("id", videoId)
                        .put("created_time", now)
                        .put("edge", "videos")
                        .put("file_url", fields.get("file_url"));
                putIfPresent(video, "description", fields.get("description"));
                publish(video);
                return json(200, object().put("id", videoId));
            }
        }
    }

    private FakeResponse list(FakeRequest request, IssuedGrant grant, String page, String edge) {
        if (!page.equals(grant.subject()) && !grant.subject().equals(USER_ID)) {
            return json(
                    403,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            10,
                            null,
                            "(#10) This endpoint requires the 'pages_read_engagement' permission",
                            false));
        }
        int limit = request.intQueryParameter("limit", 25);
        String fields = request.queryParameter("fields");
        Set<String> wanted = new LinkedHashSet<>(List.of((fields == null ? "id" : fields).split(",")));
        ObjectNode body = object();
        ArrayNode data = body.putArray("data");
        // A Page's feed shows its photo posts too; its videos edge only videos.
        publishedWhere(item -> "videos".equals(edge)
                        == "videos".equals(item.path("edge").asText()))
                .stream()
                .filter(item -> item.path("id").asText().startsWith(page) || "videos".equals(edge))
                .limit(limit)
                .forEach(item -> {
                    ObjectNode shown = data.addObject();
                    wanted.forEach(field -> {
                        JsonNode value = item.get(field.trim());
                        if (value != null) {
                            shown.set(field.trim(), value);
                        }
                    });
                });
        body.putObject("paging")
                .putObject("cursors")
                .put("before", "QVFIUmJlZAm9yZQ")
                .put("after", "QVFIUmFmdGVy");
        return json(200, body);
    }

    /**
     * A node's fields (https://developers.facebook.com/docs/graph-api/reference/page, .../pagepost,
     * .../video): the Page ({@code id}, {@code name}, {@code username}, {@code category}, {@code followers_count},
     * {@code fan_count}), or a post or video the fake published, with the edges Herald expands
     * ({@code reactions}/{@code comments} with {@code .summary(total_count)}, listing none of them; {@code shares} of a
     * post; a post's lifetime {@code insights.metric(post_impressions,post_impressions_unique)}). Numbers are
     * {@link PublishedMetrics}'s: impressions = views, unique impressions = reach, reactions = likes; a Page's followers
     * and fans its account numbers over everything published. A field the node type lacks is Graph's #100; an id the
     * fake never published its "does not exist" error.
     */
    private FakeResponse node(FakeRequest request, String id) {
        List<GraphFields> fields = GraphFields.parse(request.queryParameter("fields"));
        Instant now = Instant.now();
        if (PAGE_ID.equals(id)) {
            PublishedMetrics.Account counts = PublishedMetrics.account(
                    published().stream().map(item -> numbers(item, now)).toList());
            ObjectNode page = object().put("id", PAGE_ID);
            for (GraphFields field : fields) {
                switch (field.name()) {
                    case "id" -> {}
                    case "name" -> page.put("name", PAGE_NAME);
                    case "username" -> page.put("username", "heraldfakebakery");
                    case "category" -> page.put("category", "Bakery");
                    case "followers_count" -> page.put("followers_count", counts.followers());
                    case "fan_count" -> page.put("fan_count", counts.likes());
                    default -> {
                        return nonexistingField(field.name(), "Page");
                    }
                }
            }
            return json(200, page);
        }
        JsonNode item = published().stream()
                .filter(published -> id.equals(published.path("id").asText()))
                .findFirst()
                .orElse(null);
        if (item == null) {
            return doesNotExist("get", id);
        }
        boolean video = "videos".equals(item.path("edge").asText());
        PublishedMetrics.Item numbers = numbers(item, now);
        ObjectNode shown = object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id", "created_time", "message", "link", "description" -> {
                    if (item.has(field.name())) {
                        shown.set(field.name(), item.get(field.name()));
                    }
                }
                case "reactions" -> summaryEdge(shown, field, numbers.likes()).put("viewer_reaction", "NONE");
                case "comments" -> summaryEdge(shown, field, numbers.comments()).put("can_comment", true);
                case "shares" -> {
                    if (video) {
                        return nonexistingField(field.name(), "Video");
                    }
                    shown.putObject("shares").put("count", numbers.shares());
                }
                case "insights" -> {
                    if (video) {
                        return nonexistingField(field.name(), "Video");
                    }
                    ArrayNode data = object().putArray("data");
                    List<String> metrics = field.argument("metric");
                    for (String metric : metrics == null ? List.<String>of() : metrics) {
                        ObjectNode insight =
                                data.addObject().put("name", metric).put("period", "lifetime");
                        switch (metric) {
                            case "post_impressions" -> {
                                insight.putArray("values").addObject().put("value", numbers.views());
                                insight.put("title", "Lifetime Post Total Impressions")
                                        .put(
                                                "description",
                                                "Lifetime: The number of times your Page's post entered a person's screen. (Total Count)");
                            }
                            case "post_impressions_unique" -> {
                                insight.putArray("values").addObject().put("value", numbers.reach());
                                insight.put("title", "Lifetime Post Total Reach")
                                        .put(
                                                "description",
                                                "Lifetime: The number of people who had your Page's post enter their screen. (Unique Users)");
                            }
                            default -> {
                                return json(
                                        400,
                                        GraphErrorShapes.error(
                                                object(),
                                                "OAuthException",
                                                100,
                                                null,
                                                "(#100) The value must be a valid insights metric",
                                                false));
                            }
                        }
                        insight.put("id", id + "/insights/" + metric + "/lifetime");
                    }
                    shown.putObject("insights").set("data", data);
                }
                default -> {
                    return nonexistingField(field.name(), video ? "Video" : "PagePost");
                }
            }
        }
        return json(200, shown.put("id", id));
    }

    private FakeResponse doesNotExist(String method, String id) {
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported " + method + " request."
                                + " Object with ID '" + id
                                + "' does not exist, cannot be loaded due to missing permissions, or does not support"
                                + " this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api",
                        false));
    }

    /**
     * {@code GET /{object}/comments}: of a published post (its id, or a photo's {@code photo_id}) or video, its top-level
     * comments, or with {@code filter=stream} all of them, replies included; of a comment, its replies. {@code order}
     * {@code chronological} (the default) or {@code reverse_chronological}; {@code limit} (25, at most 100) and
     * {@code after} page through them, with Graph's {@code paging.cursors} and {@code paging.next}. The fields asked
     * for ({@code id}, {@code message}, {@code from}, {@code created_time}, {@code parent} with subfields in braces,
     * {@code comment_count}, {@code like_count}, {@code is_hidden}, {@code can_comment}); another is Graph's #100. The
     * comments are the item's {@link SeededComments} (from Graph ids and names of other people) and those posted as the
     * Page. Reading a Page's comments takes a Page token (#210 otherwise).
     */
    private FakeResponse listComments(FakeRequest request, IssuedGrant grant, String id) {
        if (!PAGE_ID.equals(grant.subject())) {
            return pageTokenRequired();
        }
        if (!grant.scopes().containsAll(Set.of("pages_read_engagement", "pages_read_user_content"))) {
            // Comments are content people posted on the Page: Graph asks for pages_read_user_content besides
            // engagement.
            return json(
                    403,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            10,
                            null,
                            "(#10) This endpoint requires the 'pages_read_engagement' and 'pages_read_user_content' permissions",
                            false));
        }
        JsonNode item = publishedItem(id);
        FakeComment comment = item == null ? findComment(id) : null;
        if (item == null && comment == null) {
            return doesNotExist("get", id);
        }
        List<FakeComment> all = comments(item != null ? item : publishedItem(comment.itemId()));
        List<FakeComment> listed;
        if (item != null) {
            String filter = request.queryParameter("filter");
            if (filter != null && !filter.equals("toplevel") && !filter.equals("stream")) {
                return json(
                        400,
                        GraphErrorShapes.error(
                                object(),
                                "OAuthException",
                                100,
                                null,
                                "(#100) param filter must be one of {toplevel, stream} - got \"" + filter + "\"",
                                false));
            }
            listed = all.stream()
                    .filter(each -> "stream".equals(filter) || each.topLevel())
                    .toList();
        } else {
            listed = comment.topLevel() ? repliesTo(all, comment.id()) : List.of();
        }
        String order = request.queryParameter("order");
        if (order != null && !order.equals("chronological") && !order.equals("reverse_chronological")) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) param order must be one of {chronological, reverse_chronological} - got \"" + order
                                    + "\"",
                            false));
        }
        if ("reverse_chronological".equals(order)) {
            listed = new ArrayList<>(listed);
            Collections.reverse(listed);
        }
        String fields = request.queryParameter("fields");
        List<GraphFields> wanted = fields == null ? COMMENT_DEFAULT_FIELDS : GraphFields.parse(fields);
        String unknown = GraphFields.firstUnknown(wanted, COMMENT_FIELDS, "parent");
        if (unknown != null) {
            return nonexistingField(unknown, "Comment");
        }
        return graphCommentPage(
                request, request.queryParameter("after"), listed, each -> shownComment(each, wanted, all));
    }

    private ObjectNode shownComment(FakeComment comment, List<GraphFields> fields, List<FakeComment> all) {
        ObjectNode shown = object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id" -> shown.put("id", comment.id());
                case "message" -> shown.put("message", comment.text());
                case "created_time" ->
                    shown.put(
                            "created_time",
                            comment.createdAt().atOffset(ZoneOffset.UTC).format(GRAPH_TIME));
                case "from" ->
                    shown.putObject("from").put("name", comment.authorName()).put("id", comment.authorId());
                case "parent" ->
                    all.stream()
                            .filter(parent -> parent.id().equals(comment.parentId()))
                            .findFirst()
                            .ifPresent(parent -> shown.set(
                                    "parent",
                                    shownComment(
                                            parent,
                                            field.subfields() == null ? COMMENT_DEFAULT_FIELDS : field.subfields(),
                                            all)));
                case "comment_count" ->
                    shown.put("comment_count", repliesTo(all, comment.id()).size());
                case "like_count" -> shown.put("like_count", 0);
                case "is_hidden" -> shown.put("is_hidden", false);
                default -> shown.put("can_comment", comment.topLevel());
            }
        }
        return shown;
    }

    /**
     * {@code POST /{object}/comments} with {@code message} (form or query), as the Page: on a published post or video, a
     * top-level comment; on a comment, a reply in its thread (a reply to a reply joins the top-level comment, as Graph
     * threads them). Answers {@code {"id"}}; the comment shows in later reads.
     */
    private FakeResponse createComment(FakeRequest request, IssuedGrant grant, String id) {
        if (!PAGE_ID.equals(grant.subject())) {
            return pageTokenRequired();
        }
        if (!grant.scopes().contains("pages_manage_engagement")) {
            return json(
                    403,
                    GraphErrorShapes.error(
                            object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) Commenting as the Page requires the pages_manage_engagement permission",
                            false));
        }
        String message = request.form().getOrDefault("message", request.queryParameter("message"));
        String itemId;
        String parentId = null;
        JsonNode item = publishedItem(id);
        if (item != null) {
            itemId = item.path("id").asText();
        } else {
            FakeComment comment = findComment(id);
            if (comment == null) {
                return doesNotExist("post", id);
            }
            itemId = comment.itemId();
            parentId = comment.topLevel() ? comment.id() : comment.parentId();
        }
        if (blank(message)) {
            return json(
                    400,
                    GraphErrorShapes.error(
                            object(), "OAuthException", 100, null, "(#100) Missing message or attachment", false));
        }
        FakeComment created = keepComment(new FakeComment(
                commentPrefix(itemId) + "_" + FakeIds.digits(16),
                itemId,
                parentId,
                message,
                PAGE_ID,
                PAGE_NAME,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return json(200, object().put("id", created.id()));
    }

    /** A published post (by its id, or a photo post by its {@code photo_id}) or video, or null. */
    private JsonNode publishedItem(String id) {
        return published().stream()
                .filter(item -> id.equals(item.path("id").asText())
                        || id.equals(item.path("photo_id").asText(null)))
                .findFirst()
                .orElse(null);
    }

    /**
     * An item's comments, oldest first. A comment's id is {@code <the item's object id>_<16 digits>}, as Graph's are;
     * seeded ones are dated at the item's publication.
     */
    private List<FakeComment> comments(JsonNode item) {
        String itemId = item.path("id").asText();
        Instant publishedAt = OffsetDateTime.parse(item.path("created_time").asText(), GRAPH_TIME)
                .toInstant();
        return commentsOn(
                itemId,
                seed -> new FakeComment(
                        seededCommentId(itemId, seed.index()),
                        itemId,
                        seed.parentIndex() == null ? null : seededCommentId(itemId, seed.parentIndex()),
                        seed.text(),
                        seed.author().facebookId(),
                        seed.author().name(),
                        publishedAt,
                        false));
    }

    private FakeComment findComment(String id) {
        for (JsonNode item : published()) {
            if (id.startsWith(commentPrefix(item.path("id").asText()) + "_")) {
                for (FakeComment comment : comments(item)) {
                    if (comment.id().equals(id)) {
                        return comment;
                    }
                }
            }
        }
        return null;
    }

    private static String seededCommentId(String itemId, int index) {
        return commentPrefix(itemId) + "_" + SeededComments.digits(itemId, index, 16);
    }

    /** A Page post's id without the Page's part ({@code <page>_<post>}); a video's id as it is. */
    private static String commentPrefix(String itemId) {
        return itemId.substring(itemId.indexOf('_') + 1);
    }

    private FakeResponse pageTokenRequired() {
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "OAuthException",
                        210,
                        null,
                        "(#210) A page access token is required to request this resource.",
                        false));
    }

    /** An edge asked for with {@code .summary(total_count)} and {@code .limit(0)}: no items, the count in its summary. */
    private ObjectNode summaryEdge(ObjectNode shown, GraphFields field, long count) {
        ObjectNode edge = shown.putObject(field.name());
        edge.putArray("data");
        if (field.argument("summary") == null) {
            return object();
        }
        return edge.putObject("summary").put("total_count", count);
    }

    private FakeResponse nonexistingField(String field, String nodeType) {
        return json(
                400,
                GraphErrorShapes.error(
                        object(),
                        "OAuthException",
                        100,
                        null,
                        "(#100) Tried accessing nonexisting field (" + field + ") on node type (" + nodeType + ")",
                        false));
    }

    private static PublishedMetrics.Item numbers(JsonNode item, Instant now) {
        return PublishedMetrics.item(
                item.path("id").asText(),
                OffsetDateTime.parse(item.path("created_time").asText(), GRAPH_TIME)
                        .toInstant(),
                now);
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        // Page-level throttling is code 32; Graph sends it as HTTP 400 with a usage header.
        return json(
                        failure.statusOr(400),
                        GraphErrorShapes.error(
                                object(), "OAuthException", 32, null, "(#32) Page request limit reached", true))
                .withHeader(
                        "X-Business-Use-Case-Usage",
                        "{\"" + PAGE_ID + "\":[{\"type\":\"pages\",\"call_count\":100,"
                                + "\"total_cputime\":25,\"total_time\":25,\"estimated_time_to_regain_access\":"
                                + Math.max(
                                        1,
                                        (failure.getRetryAfterSeconds() == null ? 60 : failure.getRetryAfterSeconds())
                                                / 60)
                                + "}]}");
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

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
