package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.common.paging.CursorConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secrets of the hosted pages, all derived from one server secret with HMAC-SHA256 under distinct labels:
 * capability tokens (random, stored only as SHA-256), the browser cookie that binds a session to the browser
 * that opened its link, CSRF tokens bound to that cookie, OAuth {@code state} bound to session, platform and
 * cookie, and PKCE verifiers derived from the state (so nothing of the round trip is stored).
 */
@ApplicationScoped
public class ConnectBrowserBinding {
    public static final String COOKIE = "herald_connect";
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder BASE64URL_DECODER = Base64.getUrlDecoder();
    private static final int TOKEN_BYTES = 32;

    private final SecureRandom random = new SecureRandom();
    private final byte[] secret;
    private final Duration authorizationTimeout;

    public ConnectBrowserBinding(ConnectConfig config, CursorConfig cursors) {
        this.authorizationTimeout = config.authorizationTimeout();
        Optional<String> own = config.secret().filter(s -> !s.isBlank());
        if (own.isPresent()) {
            this.secret = own.get().getBytes(StandardCharsets.UTF_8);
        } else {
            String cursorSecret = cursors.secret()
                    .filter(s -> !s.isBlank())
                    .orElseThrow(() -> new IllegalStateException(
                            "neither herald.connect.secret nor herald.cursor.secret is configured"));
            this.secret = hmac(cursorSecret.getBytes(StandardCharsets.UTF_8), "herald connect pages v1");
        }
    }

    /** A new capability token: 32 random bytes, base64url (43 characters). */
    public String newLinkToken() {
        byte[] token = new byte[TOKEN_BYTES];
        random.nextBytes(token);
        return BASE64URL.encodeToString(token);
    }

    /** What is stored of a capability token: its SHA-256, hex. */
    public static String hashLinkToken(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A cookie value binding this browser to the session whose link it opened: {@code <session>.<nonce>.<mac>}. */
    public String newCookie(String sessionId) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String payload = sessionId + "." + BASE64URL.encodeToString(nonce);
        return payload + "." + mac("cookie|" + payload);
    }

    /** Whether the cookie is one we issued for this session. */
    public boolean cookieBindsSession(String cookie, String sessionId) {
        if (cookie == null) {
            return false;
        }
        int lastDot = cookie.lastIndexOf('.');
        if (lastDot < 0) {
            return false;
        }
        String payload = cookie.substring(0, lastDot);
        return payload.startsWith(sessionId + ".")
                && payload.indexOf('.') == sessionId.length()
                && constantTimeEquals(mac("cookie|" + payload), cookie.substring(lastDot + 1));
    }

    /** The CSRF token forms carry: only a page served to the cookie's holder knows it. */
    public String csrfToken(String cookie) {
        return mac("csrf|" + cookie);
    }

    public boolean csrfMatches(String cookie, String token) {
        return cookie != null && token != null && constantTimeEquals(csrfToken(cookie), token);
    }

    /**
     * OAuth state: {@code base64url(session|platform|issued-at|nonce).mac}, where the mac also covers the
     * browser cookie, so a callback arriving in another browser (or for another session or platform) fails.
     */
    public String authorizationState(String sessionId, String platform, String cookie, Instant now) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String payload = BASE64URL.encodeToString(
                (sessionId + "|" + platform + "|" + now.getEpochSecond() + "|" + BASE64URL.encodeToString(nonce))
                        .getBytes(StandardCharsets.US_ASCII));
        return payload + "." + mac("state|" + payload + "|" + cookie);
    }

    /** The session id a state was issued for, when it is genuine, for this platform, this browser and recent. */
    public Optional<String> verifyState(String state, String platform, String cookie, Instant now) {
        if (state == null || cookie == null) {
            return Optional.empty();
        }
        int dot = state.indexOf('.');
        if (dot < 0
                || !constantTimeEquals(
                        mac("state|" + state.substring(0, dot) + "|" + cookie), state.substring(dot + 1))) {
            return Optional.empty();
        }
        String[] parts;
        try {
            parts = new String(BASE64URL_DECODER.decode(state.substring(0, dot)), StandardCharsets.US_ASCII)
                    .split("\\|");
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (parts.length != 4 || !parts[1].equals(platform)) {
            return Optional.empty();
        }
        Instant issued;
        try {
            issued = Instant.ofEpochSecond(Long.parseLong(parts[2]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (now.isAfter(issued.plus(authorizationTimeout))) {
            return Optional.empty();
        }
        return Optional.of(parts[0]);
    }

    /** The PKCE verifier of one authorization (RFC 7636: 43 characters of the unreserved set), derived from its state. */
    public String pkceVerifier(String state) {
        return mac("pkce|" + state);
    }

    /** S256 challenge of a verifier. */
    public static String pkceChallenge(String verifier) {
        try {
            return BASE64URL.encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code payload.mac}: a value only this server can have made, for {@code purpose} (a label of its own). */
    public String signed(String purpose, String payload) {
        return payload + "." + mac(purpose + "|" + payload);
    }

    /** The payload of a value {@link #signed} for {@code purpose}, when it is genuine. */
    public Optional<String> verified(String purpose, String value) {
        int lastDot = value == null ? -1 : value.lastIndexOf('.');
        if (lastDot < 0) {
            return Optional.empty();
        }
        String payload = value.substring(0, lastDot);
        return constantTimeEquals(mac(purpose + "|" + payload), value.substring(lastDot + 1))
                ? Optional.of(payload)
                : Optional.empty();
    }

    /** A fresh nonce for a page's Content-Security-Policy (its one inline style sheet). */
    public String styleNonce() {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        return BASE64URL.encodeToString(nonce);
    }

    private String mac(String text) {
        return BASE64URL.encodeToString(hmac(secret, text));
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean constantTimeEquals(String expected, String actual) {
        return actual != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.US_ASCII), actual.getBytes(StandardCharsets.US_ASCII));
    }
}
