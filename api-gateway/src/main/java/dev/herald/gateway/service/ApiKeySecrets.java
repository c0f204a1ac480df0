package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** API key text: {@code sk_test_} or {@code sk_live_} followed by 32 base62 characters (~190 random bits). */
public final class ApiKeySecrets {
    private static final Pattern FORMAT = Pattern.compile("^sk_(test|live)_[A-Za-z0-9]{32}$");
    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeySecrets() {
    }

    public static String generate(Mode mode) {
        return "sk_" + mode.wireName() + "_" + randomBase62(32);
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
        if (key == null) {
            return Optional.empty();
        }
        Matcher matcher = FORMAT.matcher(key);
        return matcher.matches() ? Mode.fromWire(matcher.group(1)) : Optional.empty();
    }

    public static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
