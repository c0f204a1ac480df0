package dev.herald.gateway.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The dashboard's bearer secrets: session cookies and one-time sign-in links, 32 random bytes in base64url (43
 * characters). Stored only as SHA-256 ({@link ApiKeySecrets#hash}); the CSRF token of a session derives from its
 * cookie, so it needs no storage and no page can forge it without the HttpOnly cookie.
 */
public final class DashboardTokens {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SHAPE = Pattern.compile("^[A-Za-z0-9_-]{43}$");

    private DashboardTokens() {}

    public static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code token} could be one of ours; anything else is refused before a database lookup. */
    public static boolean wellFormed(String token) {
        return token != null && SHAPE.matcher(token).matches();
    }

    public static String hash(String token) {
        return ApiKeySecrets.hash(token);
    }

    public static String csrfFor(String sessionToken) {
        return ApiKeySecrets.hash("csrf:" + sessionToken);
    }

    /** Compares in constant time: a CSRF token must not leak through response timing. */
    public static boolean csrfMatches(String sessionToken, String presented) {
        return presented != null
                && MessageDigest.isEqual(
                        csrfFor(sessionToken).getBytes(StandardCharsets.UTF_8),
                        presented.getBytes(StandardCharsets.UTF_8));
    }
}
