package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/** API key text: {@code sk_test_} or {@code sk_live_} followed by 32 base62 characters (~190 random bits). */
public final class ApiKeySecrets {
    private static final int SECRET_LENGTH = 32;
    /** {@code sk_test_} and {@code sk_live_} are both 8 characters. */
    private static final int KEY_LENGTH = 8 + SECRET_LENGTH;

    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeySecrets() {}

    public static String generate(Mode mode) {
        return "sk_" + mode.wireName() + "_" + randomBase62(SECRET_LENGTH);
    }

    /** Random letters and digits, about 5.95 bits each; also the body of OAuth client secrets. */
    public static String randomBase62(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(BASE62[RANDOM.nextInt(BASE62.length)]);
        }
        return text.toString();
    }

    /** The mode a well-formed key names; empty for anything that is not a Herald API key. */
    public static Optional<Mode> modeOf(String key) {
        // Checked by hand rather than by a regular expression: this runs on every request.
        if (key == null || key.length() != KEY_LENGTH || !key.startsWith("sk_")) {
            return Optional.empty();
        }
        Mode mode;
        if (key.startsWith("test_", 3)) {
            mode = Mode.TEST;
        } else if (key.startsWith("live_", 3)) {
            mode = Mode.LIVE;
        } else {
            return Optional.empty();
        }
        for (int i = KEY_LENGTH - SECRET_LENGTH; i < KEY_LENGTH; i++) {
            char c = key.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
                return Optional.empty();
            }
        }
        return Optional.of(mode);
    }

    public static String hash(String key) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
