package dev.herald.common.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * Keys and claims of the internal JWT. RS256: services that only verify hold only the public key; the
 * private key goes to the callers that mint tokens (the gateway, and later service-to-service clients).
 */
@ConfigMapping(prefix = "herald.internal-jwt")
public interface InternalJwtConfig {
    /** PEM (or bare base64) X.509 public key. */
    Optional<String> publicKey();

    /** PEM (or bare base64) PKCS#8 private key; only on services that mint tokens. */
    Optional<String> privateKey();

    @WithDefault("herald-gateway")
    String issuer();

    @WithDefault("herald-services")
    String audience();

    /**
     * Lifetime of an internal token; callers reuse one for half of it. Internal tokens never leave the cluster and
     * the gateway checks the API key on every request before it forwards one, so a revoked key stops at the
     * gateway at once whatever this is. Ten minutes keeps RSA signing off the hot path when the traffic is spread
     * over many workspaces (each workspace and mode needs its own token): at 60 s, a few hundred workspaces cost
     * every caller several signatures a second.
     */
    @WithDefault("PT10M")
    Duration ttl();
}
