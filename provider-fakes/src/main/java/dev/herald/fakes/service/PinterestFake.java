package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import dev.herald.fakes.model.ReceivedBytes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pinterest API v5 below {@code /pinterest} (its production and sandbox hosts both point here).
 * <ul>
 * <li>OAuth (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * {@code /oauth/} then {@code POST /v5/oauth/token} with the client as HTTP Basic; with
 * {@code continuous_refresh=true} every refresh also answers a new refresh token and retires the old one.</li>
 * <li>{@code /v5/user_account}; {@code /v5/boards} (one board), {@code /v5/boards/{id}/sections} (none).</li>
 * <li>{@code POST /v5/pins} (https://developers.pinterest.com/docs/api/v5/pins-create) with
 * {@code media_source.source_type} {@code image_url}, or {@code multiple_image_urls} with 2 to 5 {@code items} (a
 * carousel): 201 and the pin; {@code GET /v5/boards/{id}/pins}.</li>
 * <li>Video pins (https://developers.pinterest.com/docs/api/v5/media-create, .../media-get): {@code POST /v5/media}
 * registers an upload whose {@code upload_url} is on the fake's own host below {@code /media-uploads/} (Pinterest's
 * is a presigned S3 form; the fake counts and hashes the form it gets, it does not parse it), {@code GET
 * /v5/media/{id}} answers {@code registered} until the upload, then {@code succeeded} (the fake processes at once),
 * and a pin's {@code media_source.source_type} {@code video_id} must name a succeeded upload and give
 * {@code cover_image_url} or {@code cover_image_key_frame_time}.</li>
 * </ul>
 * Errors are Pinterest's {@code {"code", "message"}}.
 * This class routes and answers OAuth, the account and media uploads; {@link PinterestPins} answers the pins.
 */
@Singleton
public class PinterestFake extends StatefulPlatformFake {
    public static final String ACCOUNT_ID = "1125899906842624";
    public static final String USERNAME = "heraldfakekitchen";
    public static final String BOARD_ID = "1125899906842625101";
    private static final Duration ACCESS_LIFETIME = Duration.ofDays(30);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(60);

    private static final String UPLOADS = "/media-uploads/";

    /** Registered video uploads by media id: {@code registered}, then {@code succeeded} once their bytes came. */
    private final Map<String, String> mediaStatus = new ConcurrentHashMap<>();

    private final PinterestPins pins = new PinterestPins(this);

    public PinterestFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
    }

    @Override
    public boolean receivesBytes(String method, String path) {
        return "POST".equals(method) && path.startsWith(UPLOADS);
    }

    @Override
    public void reset() {
        super.reset();
        mediaStatus.clear();
    }

    @Override
    public String platform() {
        return "pinterest";
    }

    @Override
    public boolean isAuthorizationPage(FakeRequest request) {
        return request.is("GET", "/oauth/?");
    }

    @Override
    public FakeResponse handle(FakeRequest request) {
        if (isAuthorizationPage(request)) {
            return authorization.authorize(request, "client_id");
        }
        if (request.is("POST", "/v5/oauth/token")) {
            return token(request);
        }
        List<String> upload = request.match("POST", UPLOADS + "([0-9]+)");
        if (upload != null) {
            return receive(upload.get(0), request);
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return error(401, 2, "Authentication failed.");
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/v5/user_account")) {
            if (!grant.scopes().contains("user_accounts:read")) {
                return error(
                        403, 29, "You are not permitted to access that resource (user_accounts:read is required).");
            }
            PublishedMetrics.Account counts = accountCounts(Instant.now());
            return json(
                    200,
                    object().put("account_type", "BUSINESS")
                            .put("id", ACCOUNT_ID)
                            .put("username", USERNAME)
                            .put("business_name", "Herald Fake Kitchen")
                            .put("profile_image", "https://i.pinimg.com/fake/profile.jpg")
                            .put("website_url", "https://example.com")
                            .put("board_count", 1)
                            .put("pin_count", counts.posts())
                            .put("follower_count", counts.followers())
                            .put("following_count", counts.following())
                            .put("monthly_views", counts.views()));
        }
        if (request.is("GET", "/v5/boards")) {
            ObjectNode body = object();
            body.putArray("items")
                    .addObject()
                    .put("id", BOARD_ID)
                    .put("name", "Weeknight dinners")
                    .put("description", "Recipes from Herald's fake kitchen")
                    .put("privacy", "PUBLIC")
                    .putObject("owner")
                    .put("username", USERNAME);
            body.putNull("bookmark");
            return json(200, body);
        }
        List<String> board = request.match("GET", "/v5/boards/([0-9]+)/sections");
        if (board != null) {
            if (!BOARD_ID.equals(board.get(0))) {
                return error(404, 3, "Board not found.");
            }
            ObjectNode body = object();
            body.putArray("items");
            body.putNull("bookmark");
            return json(200, body);
        }
        if (request.is("POST", "/v5/pins")) {
            return pins.createPin(request, grant);
        }
        if (request.is("POST", "/v5/media")) {
            return registerMedia(request, grant);
        }
        List<String> registered = request.match("GET", "/v5/media/([0-9]+)");
        if (registered != null) {
            String status = mediaStatus.get(registered.get(0));
            if (status == null) {
                return error(404, 4, "Media upload not found.");
            }
            return json(
                    200,
                    object().put("media_id", registered.get(0))
                            .put("media_type", "video")
                            .put("status", status));
        }
        List<String> analytics = request.match("GET", "/v5/pins/([0-9]+)/analytics");
        if (analytics != null) {
            return pins.pinAnalytics(request, grant, analytics.get(0));
        }
        List<String> pinsOf = request.match("GET", "/v5/boards/([0-9]+)/pins");
        if (pinsOf != null) {
            if (!BOARD_ID.equals(pinsOf.get(0))) {
                return error(404, 3, "Board not found.");
            }
            int pageSize = Math.min(250, request.intQueryParameter("page_size", 25));
            ObjectNode body = object();
            ArrayNode items = body.putArray("items");
            publishedWhere(pin -> pinsOf.get(0).equals(pin.path("board_id").asText())).stream()
                    .limit(pageSize)
                    .forEach(items::add);
            body.putNull("bookmark");
            return json(200, body);
        }
        return error(404, 404, "the fake Pinterest has no endpoint " + request.method() + " " + request.path());
    }

    private FakeResponse token(FakeRequest request) {
        String[] client = AuthorizationServer.basicCredentials(request);
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(
                    platform(), client == null ? null : client[0], client == null ? null : client[1]);
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code =
                        authorization.redeem(platform(), form.get("code"), client[0], form.get("redirect_uri"), null);
                return json(200, tokenAnswer(FakeIds.alphanumeric(16), code.scopes(), true, "authorization_code"));
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (tokens.state(platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(400, "invalid_grant", "Invalid refresh token.");
                }
                IssuedGrant grant = tokens.grant(platform(), refreshToken);
                boolean continuous = "true".equals(form.get("continuous_refresh"));
                if (continuous) {
                    tokens.retire(platform(), refreshToken);
                }
                return json(200, tokenAnswer(grant.grantId(), grant.scopes(), continuous, "refresh_token"));
            }
            throw new OAuthRefusal(400, "unsupported_grant_type", "Invalid grant_type.");
        } catch (OAuthRefusal refusal) {
            return error(refusal.status(), refusal.status() == 401 ? 2 : 1, refusal.getMessage());
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes, boolean newRefreshToken, String responseType) {
        ObjectNode answer = object().put(
                        "access_token",
                        tokens.issueAccess(
                                platform(), grantId, ACCOUNT_ID, scopes, ACCESS_LIFETIME, FakeIds.token("pina_", 120)));
        if (newRefreshToken) {
            answer.put(
                    "refresh_token",
                    tokens.issueRefresh(
                            platform(), grantId, ACCOUNT_ID, scopes, REFRESH_LIFETIME, FakeIds.token("pinr_", 120)));
            answer.put("refresh_token_expires_in", REFRESH_LIFETIME.toSeconds());
        }
        return answer.put("response_type", responseType)
                .put("token_type", "bearer")
                .put("expires_in", ACCESS_LIFETIME.toSeconds())
                .put("scope", String.join(",", scopes));
    }

    private FakeResponse registerMedia(FakeRequest request, IssuedGrant grant) {
        if (!grant.scopes().contains("pins:write")) {
            return error(403, 29, "You are not permitted to access that resource (pins:write is required).");
        }
        JsonNode body = jsonBody(request);
        if (body == null || !"video".equals(body.path("media_type").asText())) {
            return error(400, 1, "Invalid request body: media_type must be video.");
        }
        String mediaId = FakeIds.digits(19);
        mediaStatus.put(mediaId, "registered");
        ObjectNode answer = object().put("media_id", mediaId)
                .put("media_type", "video")
                .put("upload_url", "http://" + request.header("host") + "/" + platform() + UPLOADS + mediaId);
        answer.putObject("upload_parameters")
                .put("x-amz-date", "20260101T000000Z")
                .put("x-amz-signature", FakeIds.alphanumeric(64).toLowerCase())
                .put("x-amz-security-token", FakeIds.token("IQoJ", 60))
                .put("x-amz-algorithm", "AWS4-HMAC-SHA256")
                .put("key", "uploads/" + mediaId + ".mp4")
                .put("policy", FakeIds.alphanumeric(80))
                .put("x-amz-credential", "ASIAFAKE/20260101/us-east-1/s3/aws4_request")
                .put("Content-Type", "multipart/form-data");
        return json(201, answer);
    }

    /** The presigned form POST of a registered upload: S3's empty 204, and the media is processed at once. */
    private FakeResponse receive(String mediaId, FakeRequest request) {
        String contentType = request.header("content-type");
        ReceivedBytes bytes = request.upload();
        if (!mediaStatus.containsKey(mediaId)
                || bytes == null
                || bytes.size() == 0
                || contentType == null
                || !contentType.startsWith("multipart/form-data")) {
            return FakeResponse.html(
                    400,
                    "<Error><Code>InvalidRequest</Code><Message>A multipart form POST to a registered"
                            + " upload is expected.</Message></Error>");
        }
        mediaStatus.put(mediaId, "succeeded");
        return FakeResponse.empty(204);
    }

    /** The account's counts over the pins it holds; {@code monthly_views} are all their views (the fake's pins are young). */
    private PublishedMetrics.Account accountCounts(Instant now) {
        return PublishedMetrics.account(published().stream()
                .map(pin -> PublishedMetrics.item(
                        pin.path("id").asText(),
                        LocalDateTime.parse(pin.path("created_at").asText()).toInstant(ZoneOffset.UTC),
                        now))
                .toList());
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        return error(failure.statusOr(429), 8, "You have exceeded your rate limit. Try again later.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return error(status, 1, "Something went wrong on our end. Sorry about that.");
    }

    FakeResponse error(int status, int code, String message) {
        return json(status, object().put("code", code).put("message", message));
    }

    /** Whether the bytes of this registered video upload came. */
    boolean uploaded(String mediaId) {
        return "succeeded".equals(mediaStatus.get(mediaId));
    }
}
