package dev.herald.common.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.crypto.SecretCipher.SecretKey;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretCipherTest {
    private final SecretKey k1 = SecretKey.generate("k1");
    private final SecretKey k2 = SecretKey.generate("k2");
    private final SecretCipher cipher = new SecretCipher(k1, List.of());

    @Test
    void opensWhatItSealedForTheSameAssociatedData() {
        String sealed = cipher.encrypt("act.provider-token-éü", "acc_1");

        assertThat(sealed).startsWith("hsc1.k1.").doesNotContain("provider-token");
        assertThat(cipher.decrypt(sealed, "acc_1")).isEqualTo("act.provider-token-éü");
    }

    @Test
    void sealingTheSameSecretTwiceGivesDifferentValues() {
        // A fresh nonce per value: equal tokens must not be recognisable as equal in the database.
        assertThat(cipher.encrypt("same", "acc_1")).isNotEqualTo(cipher.encrypt("same", "acc_1"));
    }

    @Test
    void aValueMovedToAnotherRowDoesNotOpen() {
        String sealed = cipher.encrypt("secret", "acc_1");

        assertThatThrownBy(() -> cipher.decrypt(sealed, "acc_2"))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("altered or belongs to other data");
    }

    @Test
    void anyAlteredByteIsDetected() {
        String sealed = cipher.encrypt("secret", "acc_1");
        String prefix = sealed.substring(0, sealed.lastIndexOf('.') + 1);
        byte[] body = Base64.getUrlDecoder().decode(sealed.substring(prefix.length()));
        for (int i = 0; i < body.length; i++) {
            byte[] altered = body.clone();
            altered[i] ^= 0x01;
            String tampered = prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(altered);
            assertThatThrownBy(() -> cipher.decrypt(tampered, "acc_1"))
                    .as("byte %d", i)
                    .isInstanceOf(SecretDecryptionException.class);
        }
    }

    @Test
    void relabellingAValueWithAnotherKeyIdDoesNotOpen() {
        SecretCipher both = new SecretCipher(k1, List.of(k2));
        String sealed = both.encrypt("secret", "acc_1");

        assertThatThrownBy(() -> both.decrypt(sealed.replace("hsc1.k1.", "hsc1.k2."), "acc_1"))
                .isInstanceOf(SecretDecryptionException.class);
    }

    @Test
    void afterRotationOldValuesStillOpenAndNewOnesUseTheNewKey() {
        String old = cipher.encrypt("old secret", "acc_1");
        SecretCipher rotated = new SecretCipher(k2, List.of(k1));

        String fresh = rotated.encrypt("new secret", "acc_1");

        assertThat(rotated.decrypt(old, "acc_1")).isEqualTo("old secret");
        assertThat(old).startsWith("hsc1.k1.");
        assertThat(fresh).startsWith("hsc1.k2.");
        assertThatThrownBy(() -> cipher.decrypt(fresh, "acc_1"))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("key k2, which is not configured");
    }

    @Test
    void aKeyWithTheSameIdButOtherMaterialCannotOpen() {
        String sealed = cipher.encrypt("secret", "acc_1");
        SecretCipher impostor = new SecretCipher(SecretKey.generate("k1"), List.of());

        assertThatThrownBy(() -> impostor.decrypt(sealed, "acc_1")).isInstanceOf(SecretDecryptionException.class);
    }

    @Test
    void malformedValuesAreRefused() {
        for (String value :
                List.of("", "plain", "hsc1.k1", "hsc2.k1.AAAA", "hsc1.k1.***", "hsc1.k1.AAAA", "hsc1.k1.a.b")) {
            assertThatThrownBy(() -> cipher.decrypt(value, "acc_1"))
                    .as(value)
                    .isInstanceOf(SecretDecryptionException.class);
        }
    }

    @Test
    void keysAreParsedFromTheirConfiguredFormWithoutEchoingMaterial() {
        String material = Base64.getEncoder().encodeToString(k1.material());
        assertThat(SecretKey.parse("k1:" + material)).isEqualTo(k1);

        String shortMaterial = Base64.getEncoder().encodeToString(new byte[16]);
        assertThatThrownBy(() -> SecretKey.parse("k1:" + shortMaterial))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly 32 bytes")
                .hasMessageNotContaining(shortMaterial);
        assertThatThrownBy(() -> SecretKey.parse(material))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining(material);
        assertThatThrownBy(() -> SecretKey.parse("k1:not base64!"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("secret key k1 is not valid base64");
        assertThatThrownBy(() -> SecretKey.parse("k.1:" + material)).isInstanceOf(IllegalArgumentException.class);
        assertThat(k1.toString()).isEqualTo("SecretKey[id=k1]");
    }

    @Test
    void aKeyIdConfiguredTwiceIsRefused() {
        assertThatThrownBy(() -> new SecretCipher(k1, List.of(SecretKey.generate("k1"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("configured twice");
    }
}
