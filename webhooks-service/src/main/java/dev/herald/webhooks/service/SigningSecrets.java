package dev.herald.webhooks.service;

import dev.herald.common.crypto.SecretCipher;
import dev.herald.common.crypto.SecretCiphers;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Endpoint signing secrets: {@code whsec_} + base64 of 32 random bytes, shown once. They sign, so they are stored
 * encrypted (common's {@link SecretCipher}, bound to the endpoint id: a sealed secret copied to another endpoint's
 * row does not open), never hashed.
 */
@ApplicationScoped
public class SigningSecrets {
    public static final String PREFIX = "whsec_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretCiphers ciphers;

    public SigningSecrets(SecretCiphers ciphers) {
        this.ciphers = ciphers;
    }

    /** A production run without a usable cipher key stops here, at startup, not at the first endpoint. */
    void checkKeyAtStartup(@Observes StartupEvent event) {
        ciphers.current().currentKeyId();
    }

    public static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    public String seal(String secret, String endpointId) {
        return ciphers.current().encrypt(secret, endpointId);
    }

    /** Fails with common's SecretDecryptionException when the value was altered or belongs to another endpoint. */
    public String open(String sealed, String endpointId) {
        return ciphers.current().decrypt(sealed, endpointId);
    }
}
