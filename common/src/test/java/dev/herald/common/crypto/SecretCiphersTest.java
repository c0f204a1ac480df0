package dev.herald.common.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.crypto.SecretCipher.SecretKey;
import io.quarkus.runtime.LaunchMode;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretCiphersTest {
    @Test
    void productionRefusesToStartWithoutAKey() {
        assertThatThrownBy(() -> SecretCiphers.create(config(null, null), LaunchMode.NORMAL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(
                        "herald.secret-cipher.current-key (HERALD_SECRET_CIPHER_CURRENT_KEY) is not configured");
    }

    @Test
    void aShortKeyIsRefusedInEveryMode() {
        String shortKey = "k1:" + Base64.getEncoder().encodeToString(new byte[31]);
        for (LaunchMode mode : LaunchMode.values()) {
            assertThatThrownBy(() -> SecretCiphers.create(config(shortKey, null), mode))
                    .as(mode.name())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("exactly 32 bytes");
        }
    }

    @Test
    void devAndTestRunsWithoutAKeyGetARandomOne() {
        SecretCipher one = SecretCiphers.create(config(null, null), LaunchMode.TEST);
        SecretCipher other = SecretCiphers.create(config(null, null), LaunchMode.DEVELOPMENT);

        String sealed = one.encrypt("secret", "acc_1");
        assertThat(one.decrypt(sealed, "acc_1")).isEqualTo("secret");
        assertThatThrownBy(() -> other.decrypt(sealed, "acc_1")).isInstanceOf(SecretDecryptionException.class);
    }

    @Test
    void configuredKeysSealWithTheCurrentAndOpenWithRetiredOnes() {
        SecretKey old = SecretKey.generate("k1");
        SecretKey current = SecretKey.generate("k2");
        String sealedBefore = new SecretCipher(old, List.of()).encrypt("secret", "acc_1");

        SecretCipher cipher = SecretCiphers.create(config(text(current), text(old)), LaunchMode.NORMAL);

        assertThat(cipher.currentKeyId()).isEqualTo("k2");
        assertThat(cipher.decrypt(sealedBefore, "acc_1")).isEqualTo("secret");
    }

    private static String text(SecretKey key) {
        return key.id() + ":" + Base64.getEncoder().encodeToString(key.material());
    }

    private static SecretCipherConfig config(String current, String retired) {
        return new SecretCipherConfig() {
            @Override
            public Optional<String> currentKey() {
                return Optional.ofNullable(current);
            }

            @Override
            public Optional<List<String>> retiredKeys() {
                return Optional.ofNullable(retired).map(List::of);
            }

            @Override
            public Optional<java.nio.file.Path> keyDirectory() {
                return Optional.empty();
            }

            @Override
            public java.time.Duration reloadInterval() {
                return java.time.Duration.ofSeconds(10);
            }

            @Override
            public Reseal reseal() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
