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
 * YouTube below {@code /youtube}: Google's authorization endpoint {@code /o/oauth2/v2/auth} (PKCE S256 checked),
 * {@code /oauth2/token} and {@code /oauth2/revoke} (point {@code oauth-url} at {@code /youtube/oauth2}), and the Data
 * API's {@code /youtube/v3/channels?mine=true}. Google issues a refresh token with {@code access_type=offline} and
 * does not rotate it. Publishing (the resumable upload) is not faked yet: {@code /upload/youtube/v3/videos} belongs in
 * {@link #handle} next to these, reading the bytes as a stream rather than through the journal's text body.
 * <p>
 * OAuth errors are {@code {"error", "error_description"}}; API errors Google's
 * {@code {"error": {"code", "message", "errors": [{"reason", "domain"}], "status"}}}.
 */
@Singleton
public class YouTubeFake extends StatefulPlatformFake {
    public static final String GOOGLE_SUBJECT = "109876543210987654321";
    public static final String CHANNEL_ID = "UCq3HeraldFakeChannel0001";
    private static final Duration ACCESS_LIFETIME = Duration.ofSeconds(3599);

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
                return json(400, object().put("error", "invalid_token").put("error_description", "Token expired or revoked"));
            }
            tokens.revokeGrant(grant.grantId());
            return json(200, object());
        }
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return apiError(401, "authError", "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected"
                    + " OAuth 2 access token, login cookie or other valid authentication credential.");
        }
        if (request.is("GET", "/youtube/v3/channels")) {
            if (!"true".equals(request.queryParameter("mine"))) {
                return apiError(400, "missingRequiredParameter", "INVALID_ARGUMENT", "Only mine=true is faked.");
            }
            ObjectNode body = object().put("kind", "youtube#channelListResponse").put("etag", FakeIds.alphanumeric(27));
            body.putObject("pageInfo").put("totalResults", 1).put("resultsPerPage", 5);
            ObjectNode channel = body.putArray("items").addObject().put("kind", "youtube#channel")
                    .put("etag", FakeIds.alphanumeric(27)).put("id", CHANNEL_ID);
            channel.putObject("snippet").put("title", "Herald Fake Garden").put("description", "Herald's fake channel")
                    .put("customUrl", "@heraldfakegarden").put("publishedAt", "2021-03-14T09:26:53Z");
            return json(200, body);
        }
        return apiError(404, "notFound", "NOT_FOUND", "the fake YouTube has no endpoint " + request.method() + " " + request.path());
    }

    private FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), form.get("client_id"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(platform(), form.get("code"), form.get("client_id"),
                        form.get("redirect_uri"), form.get("code_verifier"));
                String grantId = FakeIds.alphanumeric(16);
                ObjectNode answer = tokenAnswer(grantId, code.scopes(), code.clientId());
                answer.put("refresh_token", tokens.issueRefresh(platform(), grantId, GOOGLE_SUBJECT, code.scopes(), null,
                        FakeIds.token("1//0", 100)));
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
            String description = "invalid_client".equals(refusal.error()) ? "The OAuth client was not found." : refusal.getMessage();
            return json(refusal.status(), object().put("error", refusal.error()).put("error_description", description));
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes, String clientId) {
        ObjectNode answer = object().put("access_token", tokens.issueAccess(platform(), grantId, GOOGLE_SUBJECT, scopes,
                        ACCESS_LIFETIME, FakeIds.token("ya29.", 160)))
                .put("expires_in", ACCESS_LIFETIME.toSeconds()).put("scope", String.join(" ", scopes)).put("token_type", "Bearer");
        if (scopes.contains("openid")) {
            answer.put("id_token", idToken("https://accounts.google.com", clientId, GOOGLE_SUBJECT, null));
        }
        return answer;
    }

    private FakeResponse apiError(int status, String reason, String statusName, String message) {
        ObjectNode body = object();
        ObjectNode error = body.putObject("error").put("code", status).put("message", message);
        error.putArray("errors").addObject().put("message", message).put("domain", "global").put("reason", reason);
        error.put("status", statusName);
        return json(status, body);
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        int status = failure.statusOr(429);
        return apiError(status, "rateLimitExceeded", "RESOURCE_EXHAUSTED", "The request cannot be completed because you have"
                + " exceeded your quota.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return apiError(status, "backendError", status == 503 ? "UNAVAILABLE" : "INTERNAL", "Backend Error");
    }
}
