package dev.herald.gateway.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeySecretsTest {
    private static final String SECRET = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";

    @Test
    void aGeneratedKeyNamesItsMode() {
        assertThat(ApiKeySecrets.modeOf(ApiKeySecrets.generate(Mode.TEST))).contains(Mode.TEST);
        assertThat(ApiKeySecrets.modeOf(ApiKeySecrets.generate(Mode.LIVE))).contains(Mode.LIVE);
        assertThat(ApiKeySecrets.modeOf("sk_live_" + SECRET)).contains(Mode.LIVE);
    }

    @Test
    void anythingButAWellFormedKeyNamesNoMode() {
        for (String text : new String[] {
            null,
            "",
            "sk_test_",
            "sk_test_" + SECRET + "6",
            "sk_test_" + SECRET.substring(1),
            "sk_prod_" + SECRET,
            "pk_test_" + SECRET,
            "sk_test-" + SECRET,
            "sk_TEST_" + SECRET,
            "sk_test_" + SECRET.replace('A', '-'),
            "sk_test_" + SECRET.replace('z', 'é'),
            "Bearer sk_test_" + SECRET
        }) {
            assertThat(ApiKeySecrets.modeOf(text)).as(String.valueOf(text)).isEqualTo(Optional.empty());
        }
    }
}
