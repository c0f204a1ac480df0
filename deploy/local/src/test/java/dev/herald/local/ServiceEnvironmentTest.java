package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceEnvironmentTest {
    private static final LocalSecrets SECRETS = new LocalSecrets(
            "jwks", "local1", "private", "cursor", "admin", "sk_test_x", "sk_live_x", "cipher", "dashboard-token");

    private static ServiceEnvironment environment(LocalSuiteConfig config) {
        return new ServiceEnvironment(
                config,
                "127.0.0.1:19092",
                PostgresServer.existing("postgresql://u:p@127.0.0.1:5432"),
                SECRETS,
                new StateDirectory(Path.of("/herald/state")));
    }

    @Test
    void oneServicesExtraVariablesReachOnlyThatService() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(Path.of("/herald"))
                .serviceEnvironment(Map.of("HERALD_SHARED", "all"))
                .serviceEnvironment(
                        HeraldService.API_GATEWAY, Map.of("HERALD_OIDC_ISSUER", "http://127.0.0.1:1/herald"))
                .build();

        assertThat(environment(config).of(HeraldService.API_GATEWAY))
                .containsEntry("HERALD_OIDC_ISSUER", "http://127.0.0.1:1/herald")
                .containsEntry("HERALD_SHARED", "all");
        assertThat(environment(config).of(HeraldService.ACCOUNTS))
                .doesNotContainKey("HERALD_OIDC_ISSUER")
                .containsEntry("HERALD_SHARED", "all");
        assertThat(config.toBuilder().build().environmentOf(HeraldService.API_GATEWAY))
                .containsOnlyKeys("HERALD_OIDC_ISSUER");
    }

    @Test
    void theLaunchersContractWinsOverAServicesExtraVariables() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(Path.of("/herald"))
                .serviceEnvironment(HeraldService.API_GATEWAY, Map.of("HERALD_ADMIN_TOKEN", "mine"))
                .build();

        assertThat(environment(config).of(HeraldService.API_GATEWAY)).containsEntry("HERALD_ADMIN_TOKEN", "admin");
    }

    @Test
    void aProcessReadsItsKeysFromTheStateDirectory() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(Path.of("/herald")).build();

        assertThat(environment(config).of(HeraldService.WEBHOOKS))
                .containsEntry("HERALD_INTERNAL_JWT_KEY_DIRECTORY", "/herald/state/keys/internal-jwt")
                .containsEntry("HERALD_SECRET_CIPHER_KEY_DIRECTORY", "/herald/state/keys/cipher")
                .doesNotContainKeys("HERALD_INTERNAL_JWT_PRIVATE_KEY", "HERALD_SECRET_CIPHER_CURRENT_KEY");
    }

    @Test
    void aContainerGetsItsKeysAsTheChartGivesThem() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(Path.of("/herald"))
                .serviceCommand(new PodmanCommand(Path.of("/herald")))
                .build();

        // The state directory is not in the container: webhooks-service refused to start without its cipher key.
        assertThat(environment(config).of(HeraldService.WEBHOOKS))
                .containsEntry("HERALD_INTERNAL_JWT_VERIFY_KEYS", "jwks")
                .containsEntry("HERALD_INTERNAL_JWT_SIGNING_KEY_ID", "local1")
                .containsEntry("HERALD_INTERNAL_JWT_PRIVATE_KEY", "private")
                .containsEntry("HERALD_SECRET_CIPHER_CURRENT_KEY", "cipher")
                .containsEntry("HERALD_CURSOR_SECRET", "cursor")
                .doesNotContainKeys("HERALD_INTERNAL_JWT_KEY_DIRECTORY", "HERALD_SECRET_CIPHER_KEY_DIRECTORY");
    }
}
