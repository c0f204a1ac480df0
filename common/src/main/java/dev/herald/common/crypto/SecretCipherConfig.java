package dev.herald.common.crypto;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Keys of the {@link SecretCipher}, each {@code <id>:<base64 of 32 bytes>} (generate one with
 * {@code openssl rand -base64 32}). To rotate: configure a new current key and move the old one to
 * {@code retired-keys} until every stored value has been re-sealed (the services' re-seal jobs do it, and their
 * {@code herald_secrets_retired_key_values} gauge reads 0 then: docs/operations.md, "Secret rotation").
 * Environment: {@code HERALD_SECRET_CIPHER_CURRENT_KEY}, {@code HERALD_SECRET_CIPHER_RETIRED_KEYS} (comma-separated).
 */
@ConfigMapping(prefix = "herald.secret-cipher")
public interface SecretCipherConfig {
    Optional<String> currentKey();

    Optional<List<String>> retiredKeys();

    /**
     * A directory holding the two settings above as files ({@code current-key}, {@code retired-keys}), e.g. the
     * Secret mounted as a volume; it takes the place of both settings, and its files are read again every
     * {@link #reloadInterval()}, so a rotation step needs no restart.
     */
    Optional<Path> keyDirectory();

    @WithDefault("PT10S")
    Duration reloadInterval();

    /** The re-seal job ({@link RetiredKeyResealJob}). */
    Reseal reseal();

    interface Reseal {
        /** Build time: whether the service stores sealed values and runs the job (it names its {@link SealedColumn}s). */
        @WithDefault("false")
        boolean enabled();

        /** How often the job looks for values sealed with a retired key. */
        @WithDefault("PT1M")
        Duration interval();
    }
}
