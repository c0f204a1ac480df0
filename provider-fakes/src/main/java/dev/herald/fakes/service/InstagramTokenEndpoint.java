package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Duration;
import java.util.Map;

/**
 * Business Login's tokens for {@link InstagramFake}: the code exchanged for a short-lived token, swapped for a 60-day
 * token that is renewed in turn; no refresh tokens.
 */
final class InstagramTokenEndpoint {
    private static final Duration LONG_LIVED = Duration.ofDays(60);
    private final InstagramFake fake;

    InstagramTokenEndpoint(InstagramFake fake) {
        this.fake = fake;
    }

    /** {@code POST /oauth/access_token}: the code for a short-lived token. */
    FakeResponse exchangeCode(FakeRequest request) {
        Map<String, String> form = request.form();
        try {
            fake.authorization.authenticate(fake.platform(), form.get("client_id"), form.get("client_secret"));
            if (!"authorization_code".equals(form.get("grant_type"))) {
                throw new OAuthRefusal(400, "OAuthException", "Invalid grant_type");
            }
            AuthorizationServer.PendingCode code = fake.authorization.redeem(
                    fake.platform(), form.get("code"), form.get("client_id"), form.get("redirect_uri"), null);
            String token = fake.tokens.issueAccess(
                    fake.platform(),
                    FakeIds.alphanumeric(16),
                    InstagramFake.USER_ID,
                    code.scopes(),
                    Duration.ofHours(1),
                    FakeIds.token("IGAA", 160));
            ObjectNode body = fake.object();
            body.putArray("data")
                    .addObject()
                    .put("access_token", token)
                    .put("user_id", InstagramFake.USER_ID)
                    .put("permissions", String.join(",", code.scopes()));
            return fake.json(200, body);
        } catch (OAuthRefusal refusal) {
            return fake.json(
                    400,
                    fake.object()
                            .put("error_type", "OAuthException")
                            .put("code", 400)
                            .put("error_message", refusal.getMessage()));
        }
    }

    /**
     * {@code GET /access_token} ({@code exchange}: a short-lived token for a long-lived one) or
     * {@code GET /refresh_access_token} (a long-lived token renewed).
     */
    FakeResponse longLivedToken(FakeRequest request, IssuedGrant grant, boolean exchange) {
        if (exchange) {
            if (!"ig_exchange_token".equals(request.queryParameter("grant_type"))
                    || !fake.authorization
                            .client(fake.platform())
                            .clientSecret()
                            .equals(request.queryParameter("client_secret"))) {
                return fake.json(
                        400,
                        GraphErrorShapes.error(
                                fake.object(),
                                "OAuthException",
                                101,
                                null,
                                "Error validating client secret or grant_type.",
                                false));
            }
        } else if (!"ig_refresh_token".equals(request.queryParameter("grant_type"))) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(), "OAuthException", 100, null, "grant_type must be ig_refresh_token", false));
        }
        String token = fake.tokens.issueAccess(
                fake.platform(),
                grant.grantId(),
                grant.subject(),
                grant.scopes(),
                LONG_LIVED,
                FakeIds.token("IGAA", 160));
        return fake.json(
                200,
                fake.object()
                        .put("access_token", token)
                        .put("token_type", "bearer")
                        .put("expires_in", LONG_LIVED.toSeconds()));
    }
}
