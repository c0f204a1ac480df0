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
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Facebook below {@code /facebook}: the login dialog {@code /{version}/dialog/oauth} and the Graph API
 * {@code /{version}/...} (any {@code vNN.N}).
 * <ul>
 * <li>Facebook Login's manual flow: the code exchanged at {@code GET /oauth/access_token} for a short-lived user
 * token, swapped ({@code grant_type=fb_exchange_token}) for a 60-day one; {@code /me?fields=id,permissions};
 * {@code /me/accounts} lists the one Page the user manages with its Page token, which never expires but dies with
 * the user's grant; {@code DELETE /me/permissions} revokes it.</li>
 * <li>Pages publishing (https://developers.facebook.com/docs/pages-api/posts): {@code POST /{page}/feed}
 * ({@code message}, {@code link}, {@code attached_media[i]}), {@code /{page}/photos} ({@code url}, and
 * {@code published=false} for a photo to attach) and {@code /{page}/videos} ({@code file_url}), Reels
 * ({@code /{page}/video_reels}) and stories ({@code /{page}/photo_stories}, {@code /{page}/video_stories}) with the
 * upload host at {@code /video-upload/{version}/{video_id}} ({@link FacebookUploads}), with the Page token;
 * {@code GET /{page}/feed}, {@code /{page}/videos}, {@code /{page}/video_reels} and {@code /{page}/stories} list
 * them.</li>
 * <li>Comments (https://developers.facebook.com/docs/graph-api/reference/object/comments): {@code GET /{object}/comments}
 * of a published post, photo or video (top-level comments, or with {@code filter=stream} replies too, each naming its
 * {@code parent}) or of a comment (its replies), and {@code POST /{object}/comments} ({@code message}) commenting as
 * the Page; see {@link FacebookComments#listComments}.</li>
 * </ul>
 * Tokens are read from {@code Authorization: Bearer} or the {@code access_token} parameter, as Graph accepts both.
 * Errors are Graph's; throttling is code 4 (32 for Page calls) with HTTP 400, as Graph answers it. This class routes
 * and answers Login; {@link FacebookPages} and {@link FacebookComments} answer the Pages and comment endpoints.
 * <p>Longer than 300 lines: it is the one routing table of every Graph path the fake answers, next to Login.
 */
@Singleton
public class FacebookGraphFake extends StatefulPlatformFake {
    public static final String USER_ID = "10229876543210987";
    public static final String PAGE_ID = "108765432109876";
    public static final String PAGE_NAME = "Herald Fake Bakery";
    private static final String VERSION = "(v[0-9]+\\.[0-9]+)";
    static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final String OBJECT_ID = "([0-9]+(?:_[0-9]+)?)";

    private final FacebookComments commentEdges = new FacebookComments(this);
    private final FacebookUploads uploads = new FacebookUploads(this);
    private final FacebookPages pages = new FacebookPages(this, uploads);

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
    public void reset() {
        super.reset();
        uploads.reset();
    }

    @Override
    public String accessToken(FakeRequest request) {
        String bearer = request.bearerToken();
        if (bearer != null) {
            return bearer;
        }
        // The upload host takes the Page token as "Authorization: OAuth <token>".
        String authorization = request.header("authorization");
        if (authorization != null && authorization.startsWith("OAuth ")) {
            return authorization.substring("OAuth ".length()).trim();
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
        if (request.is("GET", "/" + VERSION + "/me/permissions")) {
            // Graph lists what the user granted; a permission withdrawn in their settings no longer shows granted.
            ObjectNode permissions = object();
            ArrayNode data = permissions.putArray("data");
            grant.scopes()
                    .forEach(scope -> data.addObject().put("permission", scope).put("status", "granted"));
            return json(200, permissions);
        }
        if (request.is("DELETE", "/" + VERSION + "/me/permissions")) {
            tokens.revokeGrant(grant.grantId());
            return json(200, object().put("success", true));
        }
        List<String> comments = request.match("GET", "/" + VERSION + "/" + OBJECT_ID + "/comments");
        if (comments != null) {
            return commentEdges.listComments(request, grant, comments.get(1));
        }
        comments = request.match("POST", "/" + VERSION + "/" + OBJECT_ID + "/comments");
        if (comments != null) {
            return commentEdges.createComment(request, grant, comments.get(1));
        }
        List<String> edge = request.match(
                "POST", "/" + VERSION + "/([0-9]+)/(feed|photos|videos|video_reels|video_stories|photo_stories)");
        if (edge != null) {
            return pages.create(request, grant, edge.get(1), edge.get(2));
        }
        edge = request.match("POST", "/video-upload/" + VERSION + "/([0-9]+)");
        if (edge != null) {
            // The upload host's session belongs to the Page whose token uploads to it.
            return uploads.hostedUpload(request, grant.subject(), edge.get(1));
        }
        edge = request.match("GET", "/" + VERSION + "/([0-9]+)/(feed|videos|video_reels|stories)");
        if (edge != null) {
            return pages.list(request, grant, edge.get(1), edge.get(2));
        }
        List<String> node = request.match("GET", "/" + VERSION + "/([0-9]+(?:_[0-9]+)?)");
        if (node != null) {
            return pages.node(request, node.get(1));
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

    FakeResponse doesNotExist(String method, String id) {
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

    /** A published post (by its id, or a photo post by its {@code photo_id}) or video, or null. */
    JsonNode publishedItem(String id) {
        return published().stream()
                .filter(item -> id.equals(item.path("id").asText())
                        || id.equals(item.path("photo_id").asText(null)))
                .findFirst()
                .orElse(null);
    }

    FakeResponse nonexistingField(String field, String nodeType) {
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

    /** Graph's refusal of an action it will not take (code 368, not transient). */
    @Override
    public FakeResponse refused(int status) {
        return json(status, GraphErrorShapes.disallowed(object()));
    }
}
