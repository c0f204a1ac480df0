package dev.herald.accounts.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A fetched logo: its bytes, its type as its first bytes say (PNG, JPEG or WebP: images a browser shows and that run
 * nothing; SVG is refused, as it may carry script), and its SHA-256, the name it is served under.
 */
public record LogoImage(byte[] bytes, String contentType, String sha256) {

    /** The image, or empty when its bytes are none of the three formats, whatever its host said it was. */
    public static Optional<LogoImage> sniff(byte[] bytes) {
        return contentType(bytes).map(type -> new LogoImage(bytes, type, sha256(bytes)));
    }

    static Optional<String> contentType(byte[] bytes) {
        if (startsWith(bytes, 0, new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})) {
            return Optional.of("image/png");
        }
        if (startsWith(bytes, 0, new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff})) {
            return Optional.of("image/jpeg");
        }
        if (startsWith(bytes, 0, "RIFF".getBytes(StandardCharsets.US_ASCII))
                && startsWith(bytes, 8, "WEBP".getBytes(StandardCharsets.US_ASCII))) {
            return Optional.of("image/webp");
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, int offset, byte[] magic) {
        return bytes.length >= offset + magic.length
                && Arrays.equals(bytes, offset, offset + magic.length, magic, 0, magic.length);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
