package dev.herald.accounts.provider.http;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;

/** Reads OAuth 2.0 token responses (RFC 6749 section 5.1 and the platforms' variations) into grants. */
public final class TokenResponses {
    private TokenResponses() {}

    /**
     * The grant in a token response. A missing refresh token or subject is taken from {@code previous} (a refresh
     * answer often omits both); scopes are split on commas and spaces, since platforms use either.
     */
    public static ProviderGrant grant(Platform platform, JsonObject body, String subject, ProviderGrant previous) {
        String accessToken = text(body, "access_token");
        if (accessToken == null) {
            throw ProviderErrors.malformed(platform, "an access_token");
        }
        Instant now = Instant.now();
        Long expiresIn = number(body, "expires_in");
        Long refreshExpiresIn = number(body, "refresh_token_expires_in");
        if (refreshExpiresIn == null) {
            refreshExpiresIn = number(body, "refresh_expires_in");
        }
        String refreshToken = text(body, "refresh_token");
        Instant refreshExpiresAt = refreshExpiresIn == null ? null : now.plusSeconds(refreshExpiresIn);
        Set<String> scopes = scopes(body.getValue("scope"));
        if (previous != null) {
            if (refreshToken == null) {
                refreshToken = previous.refreshToken();
                refreshExpiresAt = previous.refreshExpiresAt();
            }
            if (scopes.isEmpty()) {
                scopes = previous.scopes();
            }
            if (subject == null) {
                subject = previous.subject();
            }
        }
        return new ProviderGrant(
                accessToken,
                refreshToken,
                expiresIn == null ? null : now.plusSeconds(expiresIn),
                refreshExpiresAt,
                scopes,
                subject);
    }

    /**
     * For platforms that issue no refresh token (Meta's long-lived and Page tokens, LinkedIn outside its partner
     * programme): an unexpired grant is returned as it is, an expired one needs the user to authorize again.
     */
    public static Uni<ProviderGrant> withoutRefreshToken(Platform platform, ProviderGrant grant) {
        if (grant.expiresAt() == null || grant.expiresAt().isAfter(Instant.now())) {
            return Uni.createFrom().item(grant);
        }
        return Uni.createFrom()
                .failure(new ProviderException(
                        "token_expired",
                        platform.wireName()
                                + " issued no refresh token and the access token expired; the account must be reconnected",
                        true,
                        false));
    }

    public static Set<String> scopes(Object value) {
        Set<String> scopes = new LinkedHashSet<>();
        if (value instanceof String text) {
            Arrays.stream(text.split("[,\\s]+"))
                    .filter(scope -> !scope.isBlank())
                    .forEach(scopes::add);
        } else if (value instanceof Iterable<?> list) {
            list.forEach(scope -> scopes.add(String.valueOf(scope)));
        }
        return Set.copyOf(scopes);
    }

    /**
     * The {@code sub} claim of an OpenID Connect ID token. Its signature is not checked: the token came straight
     * from the provider's token endpoint over TLS, which OpenID Connect Core 3.1.3.7 accepts as validation.
     */
    public static String idTokenSubject(JsonObject body) {
        String idToken = text(body, "id_token");
        if (idToken == null) {
            return null;
        }
        String[] parts = idToken.split("\\.");
        if (parts.length < 2) {
            return null;
        }
        try {
            JsonObject claims =
                    new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
            return text(claims, "sub");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A string or number field as text (ids arrive as either); null when absent or blank. */
    public static String text(JsonObject body, String name) {
        Object value = body == null ? null : body.getValue(name);
        if (value == null) {
            return null;
        }
        String text = value.toString();
        return text.isBlank() ? null : text;
    }

    /** A numeric field sent as a number or a numeric string; null when absent or not a number. */
    public static Long number(JsonObject body, String name) {
        Object value = body.getValue(name);
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof String text) {
            try {
                return Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
