package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Google's token endpoint for {@link YouTubeFake}: access tokens that last an hour, a refresh token (issued with
 * {@code access_type=offline}, never rotated), and an ID token when {@code openid} was granted.
 */
final class YouTubeTokenEndpoint {
    private static final Duration ACCESS_LIFETIME = Duration.ofSeconds(3599);
    private final YouTubeFake fake;

    YouTubeTokenEndpoint(YouTubeFake fake) {
        this.fake = fake;
    }

    /** {@code POST /oauth2/token}: an authorization code (PKCE checked) or a refresh token for an access token. */
    FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            fake.authorization.authenticate(fake.platform(), form.get("client_id"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = fake.authorization.redeem(
                        fake.platform(),
                        form.get("code"),
                        form.get("client_id"),
                        form.get("redirect_uri"),
                        form.get("code_verifier"));
                String grantId = FakeIds.alphanumeric(16);
                ObjectNode answer = tokenAnswer(grantId, code.scopes(), code.clientId());
                answer.put(
                        "refresh_token",
                        fake.tokens.issueRefresh(
                                fake.platform(),
                                grantId,
                                YouTubeFake.GOOGLE_SUBJECT,
                                code.scopes(),
                                null,
                                FakeIds.token("1//0", 100)));
                return fake.json(200, answer);
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (fake.tokens.state(fake.platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(400, "invalid_grant", "Token has been expired or revoked.");
                }
                IssuedGrant grant = fake.tokens.grant(fake.platform(), refreshToken);
                return fake.json(200, tokenAnswer(grant.grantId(), grant.scopes(), form.get("client_id")));
            }
            throw new OAuthRefusal(400, "unsupported_grant_type", "Invalid grant_type: " + form.get("grant_type"));
        } catch (OAuthRefusal refusal) {
            String description =
                    "invalid_client".equals(refusal.error()) ? "The OAuth client was not found." : refusal.getMessage();
            return fake.json(
                    refusal.status(),
                    fake.object().put("error", refusal.error()).put("error_description", description));
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes, String clientId) {
        ObjectNode answer = fake.object()
                .put(
                        "access_token",
                        fake.tokens.issueAccess(
                                fake.platform(),
                                grantId,
                                YouTubeFake.GOOGLE_SUBJECT,
                                scopes,
                                ACCESS_LIFETIME,
                                FakeIds.token("ya29.", 160)))
                .put("expires_in", ACCESS_LIFETIME.toSeconds())
                .put("scope", String.join(" ", scopes))
                .put("token_type", "Bearer");
        if (scopes.contains("openid")) {
            answer.put(
                    "id_token",
                    fake.idToken("https://accounts.google.com", clientId, YouTubeFake.GOOGLE_SUBJECT, null));
        }
        return answer;
    }
}
