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
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Instagram API with Instagram Login below {@code /instagram}; its three hosts share the prefix (their paths do not
 * overlap).
 * <ul>
 * <li>Business Login: {@code /oauth/authorize}, the code exchanged at {@code POST /oauth/access_token} for a
 * short-lived token ({@code {"data": [{access_token, user_id, permissions}]}}), swapped at
 * {@code GET /access_token} ({@code ig_exchange_token}) for a 60-day token that {@code GET /refresh_access_token}
 * ({@code ig_refresh_token}) renews; no refresh tokens. {@code /{version}/me} is one professional account.</li>
 * <li>Content publishing (https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * {@code POST /{version}/{user}/media} makes a container (an image, a Reel, a story, a carousel item or a carousel of
 * them: {@link InstagramContainerKinds}), {@code GET /{version}/{container}?fields=status_code} reports it
 * ({@code FINISHED} at once, {@code ERROR} when a {@code processing_error} failure met its creation),
 * {@code POST /{version}/{user}/media_publish} publishes it (a carousel with its {@code children}),
 * {@code GET /{version}/{media}}, {@code GET /{version}/{user}/media} and {@code GET /{version}/{user}/stories} read
 * the result ({@code media_type}, {@code media_product_type} FEED, REELS or STORY).</li>
 * <li>Comments (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/comments,
 * .../instagram-comment/replies): {@code GET /{version}/{media}/comments} (top-level comments, newest first, with
 * their {@code replies}), {@code GET /{version}/{comment}/replies}, and {@code POST} to either with {@code message}
 * commenting as the account; see {@link InstagramComments#listComments}.</li>
 * </ul>
 * Parameters are read from the JSON body, the form or the query, as Graph accepts all three; tokens from a Bearer
 * header or {@code access_token}.
 * This class routes and answers the account's reads; {@link InstagramTokenEndpoint}, {@link InstagramMedia} and
 * {@link InstagramComments} answer Login's tokens, publishing, media reads and comments.
 */
@Singleton
public class InstagramFake extends StatefulPlatformFake {

    public static final String USER_ID = "17841400000000001";
    public static final String APP_SCOPED_ID = "9876543210123456";
    public static final String USERNAME = "heraldfake.studio";
    private static final String VERSION = "(v[0-9]+\\.[0-9]+)";
    static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");

    private final InstagramComments commentEdges = new InstagramComments(this);
    private final InstagramMedia media = new InstagramMedia(this);
    private final InstagramTokenEndpoint tokenEndpoint = new InstagramTokenEndpoint(this);

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
        media.reset();
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("POST", "/oauth/access_token")) {
            return tokenEndpoint.exchangeCode(request);
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
            return tokenEndpoint.longLivedToken(request, grant, exchange);
        }
        if (request.is("GET", "/" + VERSION + "/me")) {
            return json(200, me(request));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/content_publishing_limit");
        if (path != null) {
            FakeResponse refused = refuseOtherAccount(grant, path.get(1), "instagram_business_content_publish");
            if (refused != null) {
                return refused;
            }
            ObjectNode limit = object();
            limit.putArray("data").addObject().put("quota_usage", published().size());
            return json(200, limit);
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/insights");
        if (path != null) {
            return media.insights(request, grant, path.get(1));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/media");
        if (path != null) {
            return media.createContainer(request, grant, path.get(1));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/media_publish");
        if (path != null) {
            return media.publishContainer(request, grant, path.get(1));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/(media|stories)");
        if (path != null) {
            return media.recentMedia(request, grant, path.get(1), "stories".equals(path.get(2)));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)/(comments|replies)");
        if (path != null) {
            return commentEdges.listComments(request, grant, path.get(1), path.get(2));
        }
        path = request.match("POST", "/" + VERSION + "/([0-9]+)/(comments|replies)");
        if (path != null) {
            return commentEdges.createComment(request, grant, path.get(1), path.get(2));
        }
        path = request.match("GET", "/" + VERSION + "/([0-9]+)");
        if (path != null) {
            return media.node(request, path.get(1));
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
        PublishedMetrics.Account counts = PublishedMetrics.account(published().stream()
                .map(media -> InstagramMedia.numbers(media, now))
                .toList());
        me.put("followers_count", counts.followers())
                .put("follows_count", counts.following())
                .put("media_count", counts.posts());
        return media.selected(me, request);
    }

    FakeResponse refuseOtherAccount(IssuedGrant grant, String user, String permission) {
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

    FakeResponse missingPermission(String permission) {
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
    String parameter(FakeRequest request, String name) {
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

    /** Graph's refusal of an action it will not take (code 368, not transient). */
    @Override
    public FakeResponse refused(int status) {
        return json(status, GraphErrorShapes.disallowed(object()));
    }
}
