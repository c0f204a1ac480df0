package dev.herald.testing;

import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokenIssuer;
import dev.herald.common.auth.Mode;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/** Mints internal JWTs, as the gateway does, for tests that call a service directly. */
public final class TestTokens {
    private static volatile InternalTokenIssuer issuer;

    private TestTokens() {}

    static void useKeys(KeyPair keys) {
        issuer = new InternalTokenIssuer(
                keys.getPrivate(), "herald-gateway", "herald-services", Duration.ofMinutes(5), Clock.systemUTC());
    }

    public static String bearer(String workspaceId, Mode mode, String... scopes) {
        if (issuer == null) {
            throw new IllegalStateException("RealInfrastructure has not started yet");
        }
        return "Bearer " + issuer.issue(new InternalToken(workspaceId, mode, "key_test", Set.of(scopes)));
    }
}
