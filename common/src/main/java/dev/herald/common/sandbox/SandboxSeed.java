package dev.herald.common.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The number simulated test-mode data is derived from: the first 8 hex digits of SHA-256 of a simulated id, as an
 * unsigned number. The same id always gives the same number, so simulated data can be documented and predicted.
 */
public final class SandboxSeed {
    private SandboxSeed() {}

    public static long of(String simulatedId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(simulatedId.getBytes(StandardCharsets.UTF_8));
            return ((hash[0] & 0xffL) << 24) | ((hash[1] & 0xffL) << 16) | ((hash[2] & 0xffL) << 8) | (hash[3] & 0xffL);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
