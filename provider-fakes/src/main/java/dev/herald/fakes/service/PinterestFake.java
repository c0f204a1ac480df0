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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pinterest API v5 below {@code /pinterest} (its production and sandbox hosts both point here).
 * <ul>
 * <li>OAuth (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * {@code /oauth/} then {@code POST /v5/oauth/token} with the client as HTTP Basic; with
 * {@code continuous_refresh=true} every refresh also answers a new refresh token and retires the old one.</li>
 * <li>{@code /v5/user_account}; {@code /v5/boards} (one board), {@code /v5/boards/{id}/sections} (none).</li>
 * <li>{@code POST /v5/pins} (https://developers.pinterest.com/docs/api/v5/pins-create) with
 * {@code media_source.source_type} {@code image_url}: 201 and the pin; {@code GET /v5/boards/{id}/pins}.</li>
 * </ul>
 * Errors are Pinterest's {@code {"code", "message"}}.
 */
@Singleton
public class PinterestFake extends StatefulPlatformFake {
    public static final String ACCOUNT_ID = "1125899906842624";
    public static final String USERNAME = "heraldfakekitchen";
    public static final String BOARD_ID = "1125899906842625101";
    private static final Duration ACCESS_LIFETIME = Duration.ofDays(30);
    private static final Duration REFRESH_LIFETIME = Duration.ofDays(60);

    public PinterestFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        super(tokens, authorization, mapper);
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
        IssuedTokens.State state = tokenState(request);
        if (state != IssuedTokens.State.VALID) {
            return error(401, 2, "Authentication failed.");
        }
        IssuedGrant grant = grant(request);
        if (request.is("GET", "/v5/user_account")) {
            return json(200, object().put("account_type", "BUSINESS").put("id", ACCOUNT_ID).put("username", USERNAME)
                    .put("business_name", "Herald Fake Kitchen").put("profile_image", "https://i.pinimg.com/fake/profile.jpg")
                    .put("website_url", "https://example.com").put("board_count", 1));
        }
        if (request.is("GET", "/v5/boards")) {
            ObjectNode body = object();
            body.putArray("items").addObject().put("id", BOARD_ID).put("name", "Weeknight dinners")
                    .put("description", "Recipes from Herald's fake kitchen").put("privacy", "PUBLIC")
                    .putObject("owner").put("username", USERNAME);
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
            return createPin(request, grant);
        }
        List<String> pinsOf = request.match("GET", "/v5/boards/([0-9]+)/pins");
        if (pinsOf != null) {
            if (!BOARD_ID.equals(pinsOf.get(0))) {
                return error(404, 3, "Board not found.");
            }
            int pageSize = Math.min(250, request.intQueryParameter("page_size", 25));
            ObjectNode body = object();
            ArrayNode items = body.putArray("items");
            publishedWhere(pin -> pinsOf.get(0).equals(pin.path("board_id").asText())).stream().limit(pageSize).forEach(items::add);
            body.putNull("bookmark");
            return json(200, body);
        }
        return error(404, 404, "the fake Pinterest has no endpoint " + request.method() + " " + request.path());
    }

    private FakeResponse token(FakeRequest request) {
        String[] client = AuthorizationServer.basicCredentials(request);
        Map<String, String> form = request.form();
        try {
            authorization.authenticate(platform(), client == null ? null : client[0], client == null ? null : client[1]);
            if ("authorization_code".equals(form.get("grant_type"))) {
                AuthorizationServer.PendingCode code = authorization.redeem(platform(), form.get("code"), client[0],
                        form.get("redirect_uri"), null);
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
        ObjectNode answer = object().put("access_token", tokens.issueAccess(platform(), grantId, ACCOUNT_ID, scopes,
                ACCESS_LIFETIME, FakeIds.token("pina_", 120)));
        if (newRefreshToken) {
            answer.put("refresh_token", tokens.issueRefresh(platform(), grantId, ACCOUNT_ID, scopes, REFRESH_LIFETIME,
                    FakeIds.token("pinr_", 120)));
            answer.put("refresh_token_expires_in", REFRESH_LIFETIME.toSeconds());
        }
        return answer.put("response_type", responseType).put("token_type", "bearer")
                .put("expires_in", ACCESS_LIFETIME.toSeconds()).put("scope", String.join(",", scopes));
    }

    private FakeResponse createPin(FakeRequest request, IssuedGrant grant) {
        if (!grant.scopes().contains("pins:write")) {
            return error(403, 29, "You are not permitted to access that resource (pins:write is required).");
        }
        JsonNode pin = jsonBody(request);
        if (pin == null || !pin.hasNonNull("board_id") || !pin.path("media_source").isObject()) {
            return error(400, 1, "Invalid request body: board_id and media_source are required.");
        }
        if (!BOARD_ID.equals(pin.get("board_id").asText())) {
            return error(404, 3, "Board not found.");
        }
        JsonNode source = pin.get("media_source");
        if (!"image_url".equals(source.path("source_type").asText()) || !source.path("url").asText("").startsWith("http")) {
            return error(400, 1, "Invalid request body: only media_source.source_type image_url with a url is faked.");
        }
        ObjectNode created = object().put("id", FakeIds.digits(18))
                .put("created_at", OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toLocalDateTime().toString())
                .put("board_id", BOARD_ID).put("board_owner", USERNAME);
        for (String field : List.of("board_section_id", "title", "description", "link", "alt_text")) {
            if (pin.hasNonNull(field)) {
                created.set(field, pin.get(field));
            } else {
                created.putNull(field);
            }
        }
        created.putObject("media").put("media_type", "image").put("source_url", source.get("url").asText());
        created.put("is_owner", true);
        publish(created);
        return json(201, created);
    }

    @Override
    public FakeResponse rateLimited(ArmedFailure failure) {
        return error(failure.statusOr(429), 8, "You have exceeded your rate limit. Try again later.");
    }

    @Override
    public FakeResponse serverError(int status) {
        return error(status, 1, "Something went wrong on our end. Sorry about that.");
    }

    private FakeResponse error(int status, int code, String message) {
        return json(status, object().put("code", code).put("message", message));
    }
}
