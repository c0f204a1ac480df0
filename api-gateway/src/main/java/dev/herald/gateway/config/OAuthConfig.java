package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * OAuth 2.0 access tokens. {@code resource} is the exact REST base URL tokens must be bound to (RFC 8707);
 * tokens for any other resource are refused. An external OIDC issuer (Keycloak, say) can mint tokens too.
 */
@ConfigMapping(prefix = "herald.oauth")
public interface OAuthConfig {
    /** The REST base URL, e.g. {@code https://api.example.com/api/v1}: the only audience accepted. */
    String resource();

    /** The {@code iss} of tokens this gateway mints. */
    @WithDefault("herald")
    String issuer();

    @WithDefault("PT1H")
    Duration tokenLifetime();

    /** Another issuer whose tokens are accepted (they must carry {@code wid}, {@code mode} and {@code scope}). */
    Optional<External> external();

    interface External {
        /** Its {@code iss}, exactly. */
        String issuer();

        /** Where its signing keys are published (the {@code jwks_uri} of its discovery document). */
        String jwksUrl();
    }
}
