package dev.herald.gateway.config;

import io.quarkus.oidc.Oidc;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.runtime.OidcTenantConfig.ApplicationType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Creates quarkus-oidc's tenant for the dashboard ({@code /dashboard/oidc}) when an issuer is configured.
 * Programmatic rather than {@code quarkus.oidc.*} properties: quarkus-oidc refuses to start a configured tenant
 * without an issuer, and a self-hoster without an identity provider must still get a working gateway (sign-in links
 * need none).
 */
@ApplicationScoped
public class DashboardOidc {
    public static final String TENANT = "dashboard";

    private final DashboardConfig config;

    public DashboardOidc(DashboardConfig config) {
        this.config = config;
    }

    public boolean enabled() {
        return config.oidc().issuer().isPresent();
    }

    void createTenant(@Observes Oidc oidc) {
        if (!enabled()) {
            return;
        }
        DashboardConfig.Oidc settings = config.oidc();
        oidc.create(OidcTenantConfig.authServerUrl(settings.issuer().get())
                .tenantId(TENANT)
                .applicationType(ApplicationType.WEB_APP)
                .clientId(settings.clientId())
                .credentials()
                .secret(settings.clientSecret().orElse(""))
                .end()
                .authentication()
                .scopes("openid", "email", "profile")
                // quarkus-oidc's own session cookie lives only for the code flow: /dashboard/oidc starts the
                // dashboard's session and drops it.
                .cookiePath("/dashboard")
                .restorePathAfterRedirect(true)
                .javaScriptAutoRedirect(false)
                .end()
                .build());
    }
}
