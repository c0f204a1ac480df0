package dev.herald.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InternalKeysTest {
    private static final KeyPair OLD = RsaKeys.generate();
    private static final KeyPair NEW = RsaKeys.generate();

    @Test
    void aSignerSignsOnlyWithAKeyOfItsOwnVerificationSet() {
        // Step 2 of a rotation done before step 1: the new key is not in the set yet.
        assertThatIllegalStateException()
                .isThrownBy(() -> keys(Map.of("k1", OLD), "k2", NEW))
                .withMessageContaining("signing-key-id k2 is not in this service's herald.internal-jwt.verify-keys");
        // The id names a key of the set, but not this private key's.
        assertThatIllegalStateException()
                .isThrownBy(() -> keys(Map.of("k1", OLD, "k2", NEW), "k1", NEW))
                .withMessageContaining("is not the private key of k1");
    }

    @Test
    void aSignerWithBothKeysInItsSetSignsWithTheNewOneAndAcceptsBoth() {
        InternalKeys during = keys(ordered(), "k2", NEW);
        InternalToken caller = new InternalToken("ws_1", Mode.TEST, "key_1", Set.of());

        assertThat(during.verifier().verify(during.issuer().issue(caller))).contains(caller);
        assertThat(keys(Map.of("k2", NEW), "k2", NEW)
                        .verifier()
                        .verify(during.issuer().issue(caller)))
                .contains(caller);
    }

    @Test
    void aServiceThatOnlyVerifiesNeedsNoPrivateKeyUntilItSigns() {
        InternalKeys verifying = new InternalKeys(
                Optional.of(RsaKeys.jwks(Map.of("k1", OLD.getPublic()))),
                Optional.empty(),
                Optional.empty(),
                config(),
                Clock.systemUTC());

        assertThat(verifying.verifyKeys().keyIds()).containsExactly("k1");
        assertThatIllegalStateException()
                .isThrownBy(verifying::issuer)
                .withMessage("herald.internal-jwt.private-key is not configured");
    }

    private static Map<String, KeyPair> ordered() {
        Map<String, KeyPair> keys = new LinkedHashMap<>();
        keys.put("k1", OLD);
        keys.put("k2", NEW);
        return keys;
    }

    private static InternalKeys keys(Map<String, KeyPair> verify, String kid, KeyPair signing) {
        Map<String, java.security.PublicKey> publicKeys = new LinkedHashMap<>();
        verify.forEach((id, pair) -> publicKeys.put(id, pair.getPublic()));
        return new InternalKeys(
                Optional.of(RsaKeys.jwks(publicKeys)),
                Optional.of(kid),
                Optional.of(RsaKeys.privateKeyPem(signing.getPrivate())),
                config(),
                Clock.systemUTC());
    }

    private static InternalJwtConfig config() {
        return new InternalJwtConfig() {
            @Override
            public Optional<String> verifyKeys() {
                return Optional.empty();
            }

            @Override
            public Optional<String> signingKeyId() {
                return Optional.empty();
            }

            @Override
            public Optional<String> privateKey() {
                return Optional.empty();
            }

            @Override
            public Optional<Path> keyDirectory() {
                return Optional.empty();
            }

            @Override
            public Duration reloadInterval() {
                return Duration.ofSeconds(10);
            }

            @Override
            public String issuer() {
                return "herald-gateway";
            }

            @Override
            public String audience() {
                return "herald-services";
            }

            @Override
            public Duration ttl() {
                return Duration.ofMinutes(1);
            }
        };
    }
}
