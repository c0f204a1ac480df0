package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * LinkedIn's OAuth token endpoints for {@link LinkedInFake}: access tokens that last 60 days, refresh tokens that
 * last a year and are answered again (not rotated) on refresh, an ID token when {@code openid} was granted, and
 * revocation.
 */
final class LinkedInTokenEndpoint {
    private static final Duration ACCESS_LIFETIME = Duration.ofDays(60);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(365);
    private final LinkedInFake fake;

    LinkedInTokenEndpoint(LinkedInFake fake) {
        this.fake = fake;
    }

    /** {@code POST /oauth/v2/accessToken}: an authorization code or a refresh token for an access token. */
    FakeResponse token(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            fake.authorization.authenticate(fake.platform(), form.get("client_id"), form.get("client_secret"));
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = fake.authorization.redeem(
                        fake.platform(), form.get("code"), form.get("client_id"), form.get("redirect_uri"), null);
                String grantId = FakeIds.alphanumeric(16);
                ObjectNode answer = tokenAnswer(grantId, code.scopes());
                answer.put(
                        "refresh_token",
                        fake.tokens.issueRefresh(
                                fake.platform(),
                                grantId,
                                LinkedInFake.MEMBER_ID,
                                code.scopes(),
                                REFRESH_LIFETIME,
                                FakeIds.token("AQX", 160)));
                answer.put("refresh_token_expires_in", REFRESH_LIFETIME.toSeconds());
                if (code.scopes().contains("openid")) {
                    answer.put(
                            "id_token",
                            fake.idToken(
                                    "https://www.linkedin.com/oauth",
                                    code.clientId(),
                                    LinkedInFake.MEMBER_ID,
                                    LinkedInFake.MEMBER_NAME));
                }
                return fake.json(200, answer);
            }
            if ("refresh_token".equals(form.get("grant_type"))) {
                String refreshToken = form.get("refresh_token");
                if (fake.tokens.state(fake.platform(), refreshToken, true) != IssuedTokens.State.VALID) {
                    throw new OAuthRefusal(
                            400, "invalid_grant", "The provided refresh token is invalid, expired or revoked.");
                }
                IssuedGrant grant = fake.tokens.grant(fake.platform(), refreshToken);
                ObjectNode answer = tokenAnswer(grant.grantId(), grant.scopes());
                // LinkedIn keeps the refresh token; it answers it again with its remaining lifetime.
                answer.put("refresh_token", refreshToken);
                answer.put(
                        "refresh_token_expires_in",
                        Math.max(
                                0,
                                Duration.between(Instant.now(), grant.expiresAt())
                                        .toSeconds()));
                return fake.json(200, answer);
            }
            throw new OAuthRefusal(
                    400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
        } catch (OAuthRefusal refusal) {
            return fake.json(
                    refusal.status(),
                    fake.object().put("error", refusal.error()).put("error_description", refusal.getMessage()));
        }
    }

    private ObjectNode tokenAnswer(String grantId, Set<String> scopes) {
        ObjectNode answer = fake.object();
        answer.put(
                "access_token",
                fake.tokens.issueAccess(
                        fake.platform(),
                        grantId,
                        LinkedInFake.MEMBER_ID,
                        scopes,
                        ACCESS_LIFETIME,
                        FakeIds.token("AQV", 180)));
        answer.put("expires_in", ACCESS_LIFETIME.toSeconds());
        answer.put("scope", String.join(",", scopes));
        answer.put("token_type", "Bearer");
        return answer;
    }

    /**
     * {@code POST /oauth/v2/introspectToken} (client credentials and {@code token}): {@code active} with status and
     * comma-separated scopes; a revoked or expired token is {@code active: false} with its status.
     */
    FakeResponse introspect(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            fake.authorization.authenticate(fake.platform(), form.get("client_id"), form.get("client_secret"));
        } catch (OAuthRefusal refusal) {
            return fake.json(
                    refusal.status(),
                    fake.object().put("error", refusal.error()).put("error_description", refusal.getMessage()));
        }
        IssuedTokens.State state = fake.tokens.state(fake.platform(), form.get("token"), false);
        IssuedGrant grant = fake.tokens.grant(fake.platform(), form.get("token"));
        if (state == IssuedTokens.State.UNKNOWN || grant == null) {
            return fake.json(
                    400, fake.object().put("error", "invalid_request").put("error_description", "Token not found"));
        }
        ObjectNode answer = fake.object()
                .put("active", state == IssuedTokens.State.VALID)
                .put("client_id", form.get("client_id"))
                .put(
                        "status",
                        state == IssuedTokens.State.VALID
                                ? "active"
                                : state.name().toLowerCase())
                .put("scope", String.join(",", grant.scopes().stream().sorted().toList()))
                .put("auth_type", "3L");
        if (grant.expiresAt() != null) {
            answer.put("expires_at", grant.expiresAt().getEpochSecond());
        }
        return fake.json(200, answer);
    }

    /** {@code POST /oauth/v2/revoke}: the token's grant is revoked; an unknown token changes nothing. */
    FakeResponse revoke(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            fake.authorization.authenticate(fake.platform(), form.get("client_id"), form.get("client_secret"));
        } catch (OAuthRefusal refusal) {
            return fake.json(
                    refusal.status(),
                    fake.object().put("error", refusal.error()).put("error_description", refusal.getMessage()));
        }
        IssuedGrant grant = fake.tokens.grant(fake.platform(), form.get("token"));
        if (grant != null) {
            fake.tokens.revokeGrant(grant.grantId());
        }
        return FakeResponse.empty(200);
    }
}
