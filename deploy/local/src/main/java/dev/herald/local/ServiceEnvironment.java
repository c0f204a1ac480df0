package dev.herald.local;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment contract between the launcher and the services (names as Quarkus maps them to config
 * properties), once PostgreSQL, Kafka and the secrets are known. Every service learns every service URL, since
 * some ask others synchronously (admission).
 */
record ServiceEnvironment(
        LocalSuiteConfig config,
        String bootstrapServers,
        PostgresServer postgres,
        LocalSecrets secrets,
        StateDirectory state) {

    Map<String, String> of(HeraldService service) {
        Map<String, String> env = new LinkedHashMap<>(config.serviceEnvironment());
        env.putAll(config.environmentOf(service));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.port(service)));
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        if (service.database() != null) {
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", postgres.reactiveUrl(service.database()));
            env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl(service.database()));
            env.put("QUARKUS_DATASOURCE_USERNAME", postgres.username());
            env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.password());
        }
        if (config.serviceCommand().readsLauncherFiles()) {
            // Keys as files the services read again when they change, as from a mounted Secret: a key rotates on the
            // running suite (KeyDirectories).
            env.put("HERALD_INTERNAL_JWT_KEY_DIRECTORY", state.internalJwtKeys().toString());
            env.put("HERALD_SECRET_CIPHER_KEY_DIRECTORY", state.cipherKeys().toString());
        } else {
            // A container cannot see those files (without them a service that stores secrets refuses to start): it gets
            // the keys as values, in the variables the chart's Deployments fill from its Secrets.
            env.put("HERALD_INTERNAL_JWT_VERIFY_KEYS", secrets.internalJwtVerifyKeys());
            env.put("HERALD_INTERNAL_JWT_SIGNING_KEY_ID", secrets.internalJwtSigningKeyId());
            env.put("HERALD_INTERNAL_JWT_PRIVATE_KEY", secrets.internalJwtPrivateKey());
            env.put("HERALD_SECRET_CIPHER_CURRENT_KEY", secrets.secretCipherKey());
        }
        env.put("HERALD_CURSOR_SECRET", secrets.cursorSecret());
        for (HeraldService other : HeraldService.values()) {
            if (other.urlVariable() != null) {
                env.put(other.urlVariable(), "http://127.0.0.1:" + config.port(other));
            }
        }
        if (service == HeraldService.ACCOUNTS) {
            // Hosted connect links point at the gateway, which routes /connect/** to accounts-service.
            env.put("HERALD_CONNECT_PUBLIC_URL", "http://127.0.0.1:" + config.gatewayPort());
            // Local logos for the connect page's branding (http://127.0.0.1:...), as for media; production refuses
            // them.
            env.put("HERALD_BRANDING_ALLOW_PRIVATE_URLS", "true");
        }
        if (config.providerFakes() && service == HeraldService.ACCOUNTS) {
            env.putAll(ProviderFakes.accountsEnvironment(config.providerFakesUrl()));
        }
        if (config.providerFakes() && service == HeraldService.POSTS) {
            env.putAll(ProviderFakes.postsEnvironment(config.providerFakesUrl()));
        }
        if (config.providerFakes() && service == HeraldService.DELIVERY_WORKER) {
            env.putAll(ProviderFakes.deliveryEnvironment(config.providerFakesUrl()));
        }
        if (service == HeraldService.WEBHOOKS) {
            // Local receivers (http://127.0.0.1:...) for ./herald up and the system tests; production refuses
            // plain http and non-public addresses.
            env.put("HERALD_WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
        }
        if (service == HeraldService.POSTS || service == HeraldService.DELIVERY_WORKER) {
            // Local media (the provider fakes' sample files at http://127.0.0.1:...) may be posted and uploaded;
            // production refuses plain http and non-public addresses at acceptance and again at transfer.
            env.put("HERALD_MEDIA_ALLOW_PRIVATE_URLS", "true");
        }
        if (service == HeraldService.MCP_SERVER) {
            // Its tools call the public API, as any client does, with the MCP caller's key.
            env.put("HERALD_MCP_GATEWAY_URL", "http://127.0.0.1:" + config.gatewayPort());
        }
        if (service == HeraldService.API_GATEWAY) {
            // Its probes and metrics, on their own port (the public one answers nothing under /q).
            env.put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
            env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(config.managementPort(service)));
            env.put("HERALD_ADMIN_TOKEN", secrets.adminToken());
            env.put("HERALD_DEMO_TEST_KEY", secrets.demoTestKey());
            env.put("HERALD_DEMO_LIVE_KEY", secrets.demoLiveKey());
            // The gateway seeds the demo workspace, and its owner signs in to the dashboard with this token once.
            env.put("HERALD_DASHBOARD_DEMO_SIGN_IN_TOKEN", secrets.dashboardSignInToken());
        }
        return env;
    }

    Map<String, String> ofProviderFakes() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.providerFakesPort()));
        return env;
    }
}
