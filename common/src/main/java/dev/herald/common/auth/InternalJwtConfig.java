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

    @WithDefault("PT60S")
    Duration ttl();
}
