package dev.herald.local;

import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the configuration {@code ./herald} runs with from its environment variables (documented in
 * {@code docs/local-runtime.md}); see {@link LocalSuiteConfig#fromEnvironment}.
 */
final class LocalSuiteEnvironment {
    private LocalSuiteEnvironment() {}

    static LocalSuiteConfig read(Path projectRoot, Map<String, String> env) {
        LocalSuiteConfig.Builder builder = LocalSuiteConfig.builder(projectRoot);
        String stateDir = env.get("HERALD_STATE_DIR");
        if (stateDir != null && !stateDir.isBlank()) {
            builder.stateDir(Path.of(stateDir));
        }
        builder.gatewayPort(port(env, "HERALD_PORT", HeraldService.API_GATEWAY.defaultPort()))
                .gatewayManagementPort(
                        port(env, "HERALD_MANAGEMENT_PORT", LocalSuiteConfig.DEFAULT_GATEWAY_MANAGEMENT_PORT))
                .postgresPort(port(env, "HERALD_POSTGRES_PORT", LocalSuiteConfig.DEFAULT_POSTGRES_PORT))
                .kafkaPorts(
                        port(env, "HERALD_KAFKA_PORT", LocalSuiteConfig.DEFAULT_KAFKA_PORT),
                        port(env, "HERALD_KAFKA_CONTROLLER_PORT", LocalSuiteConfig.DEFAULT_KAFKA_CONTROLLER_PORT))
                .existingDatabaseUrl(env.get("HERALD_DATABASE_URL"))
                .existingKafka(env.get("KAFKA_BOOTSTRAP_SERVERS"))
                .demoTestKey(env.get("HERALD_DEMO_TEST_KEY"))
                .demoLiveKey(env.get("HERALD_DEMO_LIVE_KEY"))
                .adminToken(env.get("HERALD_ADMIN_TOKEN"))
                .providerFakesPort(port(env, "HERALD_FAKE_PROVIDERS_PORT", ProviderFakes.DEFAULT_PORT))
                .durablePostgres(flag(env, "HERALD_POSTGRES_DURABLE", true))
                .serviceCommand(ServiceCommand.quarkusJar(
                        projectRoot, ServiceJvmOptions.parse(env.get(ServiceJvmOptions.EXTRA_VARIABLE))));
        return builder.build();
    }

    private static boolean flag(Map<String, String> env, String name, boolean fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " is true or false, not '" + value + "'");
        };
    }

    private static int port(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a port number: '" + value + "'", e);
        }
    }
}
