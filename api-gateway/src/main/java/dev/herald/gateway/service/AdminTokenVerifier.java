package dev.herald.gateway.service;

import dev.herald.gateway.config.AdminConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Checks the admin token in constant time; no token configured means the admin API is closed. */
@ApplicationScoped
public class AdminTokenVerifier {
    private final AdminConfig config;

    public AdminTokenVerifier(AdminConfig config) {
        this.config = config;
    }

    public boolean isValid(String presented) {
        String expected = config.token().filter(t -> !t.isBlank()).orElse(null);
        return expected != null && presented != null && MessageDigest.isEqual(sha256(presented), sha256(expected));
    }

    /** Hashing first makes the comparison independent of the presented token's length. */
    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
