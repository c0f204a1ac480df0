package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** The dashboard's sessions and limits (docs/dashboard.md); OIDC itself is quarkus-oidc's configuration. */
@ConfigMapping(prefix = "herald.dashboard")
public interface DashboardConfig {
    /** Where browsers reach the gateway; an https URL makes the session cookie Secure. */
    URI publicUrl();

    /** How long a sign-in lasts; a session ends then whatever its use (HERALD_DASHBOARD_SESSION_TTL). */
    @WithDefault("8h")
    Duration sessionTtl();

    /** How long an unused one-time sign-in link stays valid. */
    @WithDefault("24h")
    Duration signInLinkTtl();

    /** Dashboard requests per minute per workspace and mode (spec section 8), apart from the API keys' window. */
    @WithDefault("120")
    int perMinute();

    /**
     * A one-time sign-in link for the demo workspace's owner ({@code ./herald up} passes a fresh one on every start
     * and prints {@code /dashboard/sign-in/<token>}).
     */
    Optional<String> demoSignInToken();

    /** Sign-in through the operator's identity provider; off while {@code issuer} is empty. */
    Oidc oidc();

    interface Oidc {
        /** Any OIDC issuer URL (HERALD_OIDC_ISSUER): a Keycloak realm, Entra ID, Google, Okta. */
        Optional<String> issuer();

        @WithDefault("herald-dashboard")
        String clientId();

        Optional<String> clientSecret();
    }
}
