package dev.herald.fakes.service;

import java.security.SecureRandom;

/** Random ids and tokens shaped like each platform's (digits, letters, a platform's token prefix). */
public final class FakeIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String URL_SAFE = ALPHANUMERIC + "-_";

    private FakeIds() {}

    /** {@code length} digits, the first not zero (platforms' numeric ids never start with one). */
    public static String digits(int length) {
        StringBuilder id = new StringBuilder(length);
        id.append((char) ('1' + RANDOM.nextInt(9)));
        for (int i = 1; i < length; i++) {
            id.append((char) ('0' + RANDOM.nextInt(10)));
        }
        return id.toString();
    }

    public static String alphanumeric(int length) {
        return pick(ALPHANUMERIC, length);
    }

    /** A token: the platform's prefix and {@code length} URL-safe characters. */
    public static String token(String prefix, int length) {
        return prefix + pick(URL_SAFE, length);
    }

    private static String pick(String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
