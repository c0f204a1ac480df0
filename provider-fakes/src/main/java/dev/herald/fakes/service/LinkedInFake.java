package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import jakarta.inject.Singleton;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

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
 * {@code GET /rest/videos/{urn}} then answers {@code AVAILABLE} (the fake processes at once).
 * {@code POST /rest/documents?action=initializeUpload}
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/documents-api) answers a
 * document URN and one {@code uploadUrl}, as an image. A post's {@code content.media.id} must name an uploaded image
 * or document or a finalized video of the author, and {@code content.multiImage.images}
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api) 2 to 20
 * uploaded images of the author ({@link LinkedInPosts}).</li>
 * <li>The Comments API (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
 * {@code GET /rest/socialActions/{urn}/comments} of a post (its top-level comments) or of a comment URN (its nested
 * comments), and {@code POST} to the same path commenting as the member or the organization; see
 * {@link LinkedInSocialActions#listComments}.</li>
 * </ul>
 * Errors are LinkedIn's {@code {"status", "serviceErrorCode", "code", "message"}}; OAuth errors
 * {@code {"error", "error_description"}}. This class routes and answers the profile reads;
 * {@link LinkedInTokenEndpoint}, {@link LinkedInPosts}, {@link LinkedInMedia} and {@link LinkedInSocialActions} answer
 * the rest.
 */
@Singleton
public class LinkedInFake extends StatefulPlatformFake {
    public static final String MEMBER_ID = "hF4k3Mbr0q";
    public static final String MEMBER_NAME = "Fay Kerr";
    public static final String ORGANIZATION_ID = "90421377";
    public static final String ORGANIZATION_NAME = "Herald Fake Industries";
    static final String PERSON_URN = "urn:li:person:" + MEMBER_ID;
    static final String ORGANIZATION_URN = "urn:li:organization:" + ORGANIZATION_ID;

    static final String UPLOADS = "/dms-uploads/";

    final LinkedInMedia media = new LinkedInMedia(this);
    private final LinkedInSocialActions social = new LinkedInSocialActions(this);
    private final LinkedInPosts posts = new LinkedInPosts(this);
    private final LinkedInTokenEndpoint tokenEndpoint = new LinkedInTokenEndpoint(this);

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
        media.reset();
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
            return tokenEndpoint.token(request);
        }
        if (request.is("POST", "/oauth/v2/revoke")) {
            return tokenEndpoint.revoke(request);
        }
        if (request.is("POST", "/oauth/v2/introspectToken")) {
            return tokenEndpoint.introspect(request);
        }
        List<String> upload = request.match("PUT", UPLOADS + "([A-Za-z0-9-]+)");
        if (upload != null) {
            return media.receive(upload.get(0), request);
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
            return posts.createPost(request, grant(request));
        }
        if (request.is("POST", "/rest/(images|videos|documents)")
                && "initializeUpload".equals(request.queryParameter("action"))) {
            return media.initializeUpload(request, request.path().substring("/rest/".length()));
        }
        if (request.is("POST", "/rest/videos") && "finalizeUpload".equals(request.queryParameter("action"))) {
            return media.finalizeUpload(request);
        }
        List<String> video = request.match("GET", "/rest/videos/(urn%3Ali%3Avideo%3A[A-Za-z0-9_-]+)");
        if (video != null) {
            return media.video(URLDecoder.decode(video.get(0), StandardCharsets.UTF_8));
        }
        if (request.is("GET", "/rest/posts")) {
            return posts.postsByAuthor(request, grant(request));
        }
        List<String> comments = request.match("GET", "/rest/socialActions/([^/]+)/comments");
        if (comments != null) {
            return social.listComments(
                    request, grant(request), URLDecoder.decode(comments.get(0), StandardCharsets.UTF_8));
        }
        comments = request.match("POST", "/rest/socialActions/([^/]+)/comments");
        if (comments != null) {
            return social.createComment(
                    request, grant(request), URLDecoder.decode(comments.get(0), StandardCharsets.UTF_8));
        }
        List<String> socialActions = request.match("GET", "/rest/socialActions/([^/]+)");
        if (socialActions != null) {
            return social.socialActions(
                    request, grant(request), URLDecoder.decode(socialActions.get(0), StandardCharsets.UTF_8));
        }
        return notFound(request);
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

    /** LinkedIn's refusal, in its error shape: {@code UNPROCESSABLE_ENTITY} for 422, else {@code BAD_REQUEST}. */
    @Override
    public FakeResponse refused(int status) {
        return status == 422
                ? error(status, 0, "UNPROCESSABLE_ENTITY", "The request was refused.")
                : error(status, 0, status == 403 ? "ACCESS_DENIED" : "BAD_REQUEST", "The request was refused.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return error(
                status,
                0,
                status == 504 ? "GATEWAY_TIMEOUT" : "INTERNAL_SERVER_ERROR",
                status == 504 ? "Gateway Timeout" : "Internal Server Error");
    }

    FakeResponse error(int status, int serviceErrorCode, String code, String message) {
        ObjectNode body = object().put("status", status);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        return json(status, body.put("code", code).put("message", message));
    }
}
