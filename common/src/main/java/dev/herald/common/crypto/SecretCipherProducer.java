package dev.herald.common.crypto;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The {@link SecretCipher} of a service that stores secrets. A production run without a usable key fails when
 * the cipher is first needed (services that store secrets ask for it at startup), naming the setting and never
 * echoing key material. Dev and test runs without a key get a random one for the life of the process, so
 * secrets they store do not survive a restart; {@code ./herald up} generates a lasting key instead.
 */
@ApplicationScoped
public class SecretCipherProducer {
    private static final Logger LOG = Logger.getLogger(SecretCipherProducer.class);

    @Produces
    @ApplicationScoped
    SecretCipher secretCipher(SecretCipherConfig config) {
        return create(config, LaunchMode.current());
    }

    static SecretCipher create(SecretCipherConfig config, LaunchMode mode) {
        String current = config.currentKey().filter(key -> !key.isBlank()).orElse(null);
        if (current == null) {
            if (mode == LaunchMode.NORMAL) {
                throw new IllegalStateException(
                        "herald.secret-cipher.current-key (HERALD_SECRET_CIPHER_CURRENT_KEY) is not "
                                + "configured: set it to <id>:<base64 of 32 random bytes> to encrypt stored secrets");
            }
            LOG.warnf(
                    "herald.secret-cipher.current-key is not configured; this %s run uses a random key, so secrets it "
                            + "stores will not decrypt after a restart",
                    mode.getDefaultProfile());
            return new SecretCipher(SecretCipher.SecretKey.generate("ephemeral"), List.of());
        }
        try {
            List<SecretCipher.SecretKey> retired = config.retiredKeys().orElse(List.of()).stream()
                    .filter(key -> !key.isBlank())
                    .map(SecretCipher.SecretKey::parse)
                    .toList();
            return new SecretCipher(SecretCipher.SecretKey.parse(current), retired);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("herald.secret-cipher is misconfigured: " + e.getMessage(), e);
        }
    }
}
