package dev.herald.common.crypto;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The {@link SecretCipher} of a service that stores secrets, from {@link SecretCipherConfig}: its values, read once,
 * or the files of its {@code key-directory}, read again when they change (a rotation step without a restart).
 * Callers ask for {@link #current()} on every use, so a reload reaches them at once.
 *
 * <p>A production run without a usable key fails when the cipher is first needed (services that store secrets ask
 * for it at startup), naming the setting and never echoing key material. Dev and test runs without a key get a random
 * one for the life of the process, so secrets they store do not survive a restart; {@code ./herald up} generates a
 * lasting key instead.
 */
@ApplicationScoped
public class SecretCiphers {
    /** The files of {@code herald.secret-cipher.key-directory}. */
    public static final String CURRENT_KEY_FILE = "current-key";

    public static final String RETIRED_KEYS_FILE = "retired-keys";

    private static final Logger LOG = Logger.getLogger(SecretCiphers.class);

    private final SecretCipherConfig config;
    private volatile Supplier<SecretCipher> cipher;

    public SecretCiphers(SecretCipherConfig config) {
        this.config = config;
    }

    /** The cipher of the keys as configured now: it seals with the current key and opens with any. */
    public SecretCipher current() {
        Supplier<SecretCipher> source = cipher;
        if (source == null) {
            synchronized (this) {
                if (cipher == null) {
                    cipher = source();
                }
                source = cipher;
            }
        }
        return source.get();
    }

    private Supplier<SecretCipher> source() {
        LaunchMode mode = LaunchMode.current();
        if (config.keyDirectory().isPresent()) {
            KeyFiles<SecretCipher> files = KeyFiles.watch(
                    "secret cipher keys",
                    config.keyDirectory().get(),
                    List.of(CURRENT_KEY_FILE, RETIRED_KEYS_FILE),
                    config.reloadInterval(),
                    texts -> create(
                            texts.get(CURRENT_KEY_FILE),
                            texts.get(RETIRED_KEYS_FILE)
                                    .map(line -> Arrays.asList(line.split(",")))
                                    .orElse(List.of()),
                            LaunchMode.NORMAL));
            return files::current;
        }
        SecretCipher configured = create(config, mode);
        return () -> configured;
    }

    static SecretCipher create(SecretCipherConfig config, LaunchMode mode) {
        return create(config.currentKey(), config.retiredKeys().orElse(List.of()), mode);
    }

    private static SecretCipher create(Optional<String> currentKey, List<String> retiredKeys, LaunchMode mode) {
        String current = currentKey.filter(key -> !key.isBlank()).orElse(null);
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
            List<SecretCipher.SecretKey> retired = retiredKeys.stream()
                    .map(String::trim)
                    .filter(key -> !key.isBlank())
                    .map(SecretCipher.SecretKey::parse)
                    .toList();
            return new SecretCipher(SecretCipher.SecretKey.parse(current), retired);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("herald.secret-cipher is misconfigured: " + e.getMessage(), e);
        }
    }
}
