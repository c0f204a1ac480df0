package dev.herald.testing;

import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokenIssuer;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.RsaKeys;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** Mints internal JWTs, as the gateway does, for tests that call a service directly. */
public final class TestTokens {
    /** The id of the test suite's one internal JWT key. */
    public static final String KEY_ID = "test";

    private static volatile InternalTokenIssuer issuer;

    private TestTokens() {}

    static void useKeys(KeyPair keys) {
        issuer = new InternalTokenIssuer(
                KEY_ID,
                keys.getPrivate(),
                "herald-gateway",
                "herald-services",
                Duration.ofMinutes(5),
                Clock.systemUTC());
    }

    /** The internal JWT settings of a service that signs with {@code keys} and verifies with their public key. */
    public static Map<String, String> config(KeyPair keys) {
        return Map.of(
                "herald.internal-jwt.verify-keys", RsaKeys.jwks(Map.of(KEY_ID, keys.getPublic())),
                "herald.internal-jwt.signing-key-id", KEY_ID,
                "herald.internal-jwt.private-key", RsaKeys.privateKeyPem(keys.getPrivate()));
    }

    public static String bearer(String workspaceId, Mode mode, String... scopes) {
        if (issuer == null) {
            throw new IllegalStateException("RealInfrastructure has not started yet");
        }
        return "Bearer " + issuer.issue(new InternalToken(workspaceId, mode, "key_test", Set.of(scopes)));
    }
}
