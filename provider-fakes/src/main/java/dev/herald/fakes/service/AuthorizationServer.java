package dev.herald.fakes.service;

import dev.herald.fakes.config.FakesConfig;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The authorization code grant every platform shares (RFC 6749 section 4.1, PKCE per RFC 7636): an authorization
 * page that approves at once (no login, no consent screen: the fake's user always says yes, unless a {@code deny}
 * failure is armed) and redirects back with {@code code} and {@code state}; codes that are single-use, expire
 * after ten minutes and are bound to the client, the redirect URI and the PKCE challenge.
 */
@ApplicationScoped
public class AuthorizationServer {
    private static final Duration CODE_LIFETIME = Duration.ofMinutes(10);

    /** An issued, not yet redeemed code. */
    public record PendingCode(
            String platform,
            String clientId,
            String redirectUri,
            Set<String> scopes,
            String codeChallenge,
            Instant expiresAt) {}

    private final Map<String, PendingCode> codes = new ConcurrentHashMap<>();
    private final FakesConfig config;

    public AuthorizationServer(FakesConfig config) {
        this.config = config;
    }

    /**
     * The authorization page. A wrong client or a missing redirect URI is shown to the user (as providers do: never
     * redirect to an unverified URI); anything else goes back to the redirect URI.
     *
     * @param clientIdParameter {@code client_id}, or TikTok's {@code client_key}
     */
    public FakeResponse authorize(FakeRequest request, String clientIdParameter) {
        String clientId = request.queryParameter(clientIdParameter);
        String redirectUri = request.queryParameter("redirect_uri");
        if (clientId == null || !clientId.equals(client(request.platform()).clientId())) {
            return FakeResponse.html(
                    400,
                    page(
                            "Invalid " + clientIdParameter,
                            "This app is not registered with the fake " + request.platform() + " (expected "
                                    + clientIdParameter + " "
                                    + client(request.platform()).clientId() + ")."));
        }
        if (redirectUri == null || !(redirectUri.startsWith("http://") || redirectUri.startsWith("https://"))) {
            return FakeResponse.html(
                    400, page("Invalid redirect_uri", "redirect_uri must be an absolute http(s) URL."));
        }
        String state = request.queryParameter("state");
        if (request.failure() != null && request.failure().getKind() == FailureKind.DENY) {
            return FakeResponse.redirect(back(
                    redirectUri,
                    Map.of(
                            "error",
                            "access_denied",
                            "error_description",
                            "The user denied the request",
                            "state",
                            state == null ? "" : state)));
        }
        if (!"code".equals(request.queryParameter("response_type"))) {
            return FakeResponse.redirect(back(
                    redirectUri,
                    Map.of(
                            "error",
                            "unsupported_response_type",
                            "error_description",
                            "response_type must be code",
                            "state",
                            state == null ? "" : state)));
        }
        String challenge = request.queryParameter("code_challenge");
        if (challenge != null && !"S256".equals(request.queryParameter("code_challenge_method"))) {
            return FakeResponse.redirect(back(
                    redirectUri,
                    Map.of(
                            "error",
                            "invalid_request",
                            "error_description",
                            "code_challenge_method must be S256",
                            "state",
                            state == null ? "" : state)));
        }
        String code = FakeIds.token("", 43);
        codes.put(
                code,
                new PendingCode(
                        request.platform(),
                        clientId,
                        redirectUri,
                        scopes(request.queryParameter("scope")),
                        challenge,
                        Instant.now().plus(CODE_LIFETIME)));
        return FakeResponse.redirect(
                back(redirectUri, state == null ? Map.of("code", code) : Map.of("code", code, "state", state)));
    }

    /** Redeems a code once; {@code codeVerifier} must match the challenge when the authorization had one. */
    public PendingCode redeem(String platform, String code, String clientId, String redirectUri, String codeVerifier) {
        PendingCode pending = code == null ? null : codes.remove(code);
        if (pending == null || !pending.platform().equals(platform)) {
            throw new OAuthRefusal(400, "invalid_grant", "The authorization code is invalid or was already used.");
        }
        if (Instant.now().isAfter(pending.expiresAt())) {
            throw new OAuthRefusal(400, "invalid_grant", "The authorization code expired.");
        }
        if (!pending.clientId().equals(clientId)) {
            throw new OAuthRefusal(400, "invalid_grant", "The authorization code was issued to another client.");
        }
        if (!pending.redirectUri().equals(redirectUri)) {
            throw new OAuthRefusal(400, "invalid_grant", "redirect_uri does not match the authorization request.");
        }
        if (pending.codeChallenge() != null
                && (codeVerifier == null || !pending.codeChallenge().equals(s256(codeVerifier)))) {
            throw new OAuthRefusal(400, "invalid_grant", "code_verifier does not match the code_challenge.");
        }
        return pending;
    }

    /** Checks the client's credentials, wherever the platform takes them from. */
    public void authenticate(String platform, String clientId, String clientSecret) {
        FakesConfig.Client client = client(platform);
        if (!client.clientId().equals(clientId) || !client.clientSecret().equals(clientSecret)) {
            throw new OAuthRefusal(401, "invalid_client", "Client authentication failed.");
        }
    }

    /** HTTP Basic client credentials ({@code [id, secret]}), or null. */
    public static String[] basicCredentials(FakeRequest request) {
        String authorization = request.header("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public FakesConfig.Client client(String platform) {
        FakesConfig.Client client = config.clients().get(platform);
        if (client == null) {
            throw new IllegalStateException("no OAuth client configured for the fake " + platform
                    + " (herald.fakes.clients." + platform + ".*)");
        }
        return client;
    }

    public void clear(String platform) {
        codes.values().removeIf(code -> platform == null || code.platform().equals(platform));
    }

    /** Platforms separate scopes with commas or spaces. */
    public static Set<String> scopes(String scope) {
        Set<String> scopes = new LinkedHashSet<>();
        if (scope != null) {
            Arrays.stream(scope.split("[,\\s]+")).filter(s -> !s.isBlank()).forEach(scopes::add);
        }
        return scopes;
    }

    private static URI back(String redirectUri, Map<String, String> parameters) {
        StringBuilder url = new StringBuilder(redirectUri);
        char separator = redirectUri.contains("?") ? '&' : '?';
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            url.append(separator)
                    .append(parameter.getKey())
                    .append('=')
                    .append(URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return URI.create(url.toString());
    }

    private static String s256(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String page(String title, String text) {
        return "<!doctype html><html><head><title>" + title + "</title></head><body><h1>" + title + "</h1><p>" + text
                + "</p></body></html>";
    }
}
