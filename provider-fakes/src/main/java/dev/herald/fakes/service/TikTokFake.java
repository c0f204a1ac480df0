package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * TikTok below {@code /tiktok}: Login Kit's {@code /v2/auth/authorize/} ({@code client_key}), and on the API host
 * {@code /v2/oauth/token/} (code and refresh; a refresh answers a new refresh token), {@code /v2/oauth/revoke/},
 * {@code /v2/user/info/} and the Content Posting API's {@code /v2/post/publish/creator_info/query/}
 * (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info). Publishing is not faked
 * yet: the Content Posting API's video init, chunk upload and status fetch belong in {@link #handle} next to these.
 * <p>
 * API answers are TikTok's envelope {@code {"data": {...}, "error": {"code", "message", "log_id"}}}; token
 * endpoint refusals are {@code {"error", "error_description", "log_id"}} with HTTP 200, as TikTok sends them.
 */
@Singleton
public class TikTokFake extends StatefulPlatformFake {
    public static final String OPEN_ID = "-000Fk3OpenIdHeraldFakeCreator01";
    public static final String USERNAME = "heraldfake.dance";
    private static final Duration ACCESS_LIFETIME = Duration.ofHours(24);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(365);

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
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return envelope(401, null, "access_token_invalid", "The access token is invalid or not found in the request.");
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/v2/user/info/?")) {
            ObjectNode data = object();
            data.putObject("user").put("open_id", OPEN_ID).put("union_id", "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1")
                    .put("avatar_url", "https://p16-sign.tiktokcdn-us.com/fake/avatar.jpeg").put("display_name", "Herald Fake Dance")
                    .put("username", USERNAME);
            return envelope(200, data, "ok", "");
        }
        if (request.is("POST", "/v2/post/publish/creator_info/query/?")) {
            if (!grant.scopes().contains("video.publish")) {
                return envelope(403, null, "scope_not_authorized", "The user did not authorize the scope required for"
                        + " completing this request.");
            }
            ObjectNode data = object().put("creator_avatar_url", "https://p16-sign.tiktokcdn-us.com/fake/avatar.jpeg")
                    .put("creator_username", USERNAME).put("creator_nickname", "Herald Fake Dance");
            data.putArray("privacy_level_options").add("PUBLIC_TO_EVERYONE").add("MUTUAL_FOLLOW_FRIENDS").add("SELF_ONLY");
            data.put("comment_disabled", false).put("duet_disabled", false).put("stitch_disabled", true)
                    .put("max_video_post_duration_sec", 600);
            return envelope(200, data, "ok", "");
        }
        return envelope(404, null, "invalid_params", "the fake TikTok has no endpoint " + request.method() + " " + request.path());
    }

    private FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_key"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(platform(), form.get("code"), form.get("client_key"),
                        form.get("redirect_uri"), form.get("code_verifier"));
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
        return object().put("access_token", tokens.issueAccess(platform(), grantId, OPEN_ID, scopes, ACCESS_LIFETIME,
                        FakeIds.token("act.", 72)))
                .put("expires_in", ACCESS_LIFETIME.toSeconds()).put("open_id", OPEN_ID)
                .put("refresh_expires_in", REFRESH_LIFETIME.toSeconds())
                .put("refresh_token", tokens.issueRefresh(platform(), grantId, OPEN_ID, scopes, REFRESH_LIFETIME,
                        FakeIds.token("rft.", 72)))
                .put("scope", String.join(",", scopes)).put("token_type", "Bearer");
    }

    /** TikTok's token endpoint refuses with HTTP 200 and an error body (a bad client with 401). */
    private FakeResponse oauthError(OAuthRefusal refusal) {
        return json(refusal.status() == 401 ? 401 : 200, object().put("error", refusal.error())
                .put("error_description", refusal.getMessage()).put("log_id", logId()));
    }

    private FakeResponse envelope(int status, ObjectNode data, String code, String message) {
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
