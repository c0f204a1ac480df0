package dev.herald.common.crypto;

import io.smallrye.config.ConfigMapping;
import java.util.List;
import java.util.Optional;

/**
 * Keys of the {@link SecretCipher}, each {@code <id>:<base64 of 32 bytes>} (generate one with
 * {@code openssl rand -base64 32}). To rotate: configure a new current key and move the old one to
 * {@code retired-keys} until every stored value has been re-sealed.
 * Environment: {@code HERALD_SECRET_CIPHER_CURRENT_KEY}, {@code HERALD_SECRET_CIPHER_RETIRED_KEYS} (comma-separated).
 */
@ConfigMapping(prefix = "herald.secret-cipher")
public interface SecretCipherConfig {
    Optional<String> currentKey();

    Optional<List<String>> retiredKeys();
}
