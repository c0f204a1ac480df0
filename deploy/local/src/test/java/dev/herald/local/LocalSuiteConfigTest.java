package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSuiteConfigTest {
    private static final Path ROOT = Path.of("/srv/herald");

    @Test
    void withoutSettingsTheDocumentedDefaultsApply() {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(ROOT, Map.of());

        assertThat(config.stateDir()).isEqualTo(ROOT.resolve(".herald"));
        assertThat(config.gatewayPort()).isEqualTo(8080);
        assertThat(config.listeningPorts())
                .containsExactly(
                        Map.entry("api-gateway", 8080),
                        Map.entry("profiles-service", 8181),
                        Map.entry("accounts-service", 8182),
                        Map.entry("posts-service", 8183),
                        Map.entry("delivery-worker", 8184),
                        Map.entry("webhooks-service", 8185),
                        Map.entry("usage-service", 8186),
                        Map.entry("mcp-server", 8187),
                        Map.entry("api-gateway-management", 9000),
                        Map.entry("postgres", 54329),
                        Map.entry("kafka", 19092),
                        Map.entry("kafka-controller", 19093));
        assertThat(config.managementPort(HeraldService.API_GATEWAY)).isEqualTo(9000);
        assertThat(config.managementPort(HeraldService.POSTS)).isEqualTo(8183);
        assertThat(config.embeddedPostgres()).isTrue();
        assertThat(config.embeddedKafka()).isTrue();
        assertThat(config.durablePostgres()).as("fsync on, as in production").isTrue();
        assertThat(config.serviceCommand().commandLine(HeraldService.POSTS))
                .endsWith(
                        "-Xms32m",
                        "-Xmx320m",
                        "-XX:+UseSerialGC",
                        "-Dherald.service.jar=/srv/herald/posts-service/target/quarkus-app/quarkus-run.jar",
                        "-jar",
                        "quarkus-run.jar");
        assertThat(config.serviceCommand().workingDirectory(HeraldService.POSTS))
                .contains(Path.of("/srv/herald/posts-service/target/quarkus-app"));
    }

    @Test
    void environmentVariablesSelectPortsExistingServersAndFixedCredentials() {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(
                ROOT,
                Map.of(
                        "HERALD_PORT", "9090",
                        "HERALD_MANAGEMENT_PORT", "9091",
                        "HERALD_POSTGRES_PORT", "6543",
                        "HERALD_DATABASE_URL", "postgresql://herald:secret@db.internal:5432",
                        "KAFKA_BOOTSTRAP_SERVERS", "kafka.internal:9092",
                        "HERALD_DEMO_TEST_KEY", "sk_test_abc",
                        "HERALD_DEMO_LIVE_KEY", "sk_live_abc",
                        "HERALD_ADMIN_TOKEN", "hat_abc",
                        "HERALD_STATE_DIR", "/tmp/elsewhere"));

        assertThat(config.gatewayPort()).isEqualTo(9090);
        assertThat(config.managementPort(HeraldService.API_GATEWAY)).isEqualTo(9091);
        assertThat(config.toBuilder().build().managementPort(HeraldService.API_GATEWAY))
                .isEqualTo(9091);
        assertThat(config.postgresPort()).isEqualTo(6543);
        assertThat(config.embeddedPostgres()).isFalse();
        assertThat(config.existingKafka()).isEqualTo("kafka.internal:9092");
        assertThat(config.demoTestKey()).isEqualTo("sk_test_abc");
        assertThat(config.demoLiveKey()).isEqualTo("sk_live_abc");
        assertThat(config.adminToken()).isEqualTo("hat_abc");
        assertThat(config.stateDir()).isEqualTo(Path.of("/tmp/elsewhere"));
        // Existing servers are not ours to listen on.
        assertThat(config.listeningPorts()).doesNotContainKeys("postgres", "kafka", "kafka-controller");
    }

    @Test
    void aDemoKeyWithoutItsModePrefixIsRefused() {
        assertThatThrownBy(() -> LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_DEMO_LIVE_KEY", "sk_test_x")))
                .hasMessageContaining("HERALD_DEMO_LIVE_KEY must start with sk_live_");
    }

    @Test
    void durablePostgresIsTurnedOffOnlyByAnExplicitFalse() {
        assertThat(LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_POSTGRES_DURABLE", "false"))
                        .durablePostgres())
                .isFalse();
        assertThat(LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_POSTGRES_DURABLE", "true"))
                        .durablePostgres())
                .isTrue();
        assertThatThrownBy(() -> LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_POSTGRES_DURABLE", "off")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HERALD_POSTGRES_DURABLE is true or false");
    }

    @Test
    void aPortThatIsNotANumberIsNamed() {
        assertThatThrownBy(() -> LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_PORT", "eighty")))
                .hasMessageContaining("HERALD_PORT is not a port number");
    }

    @Test
    void theSamePortTwiceIsRefused() {
        assertThatThrownBy(() -> LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_PORT", "8183")))
                .hasMessageContaining("port 8183 is configured twice");
    }

    @Test
    void freePortsGivesEveryComponentItsOwnPort() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(ROOT).freePorts().build();

        assertThat(config.listeningPorts().values()).doesNotHaveDuplicates().doesNotContain(8080, 54329, 19092);
    }

    @Test
    void theProviderFakesListenOnlyWhenAskedForOnTheirConfiguredPort() {
        LocalSuiteConfig plain = LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_FAKE_PROVIDERS_PORT", "18190"));

        assertThat(plain.providerFakes()).isFalse();
        assertThat(plain.listeningPorts()).doesNotContainKey("provider-fakes");
        assertThatThrownBy(plain::providerFakesUrl).isInstanceOf(IllegalStateException.class);

        LocalSuiteConfig withFakes = plain.toBuilder().providerFakes(true).build();
        assertThat(withFakes.listeningPorts()).containsEntry("provider-fakes", 18190);
        assertThat(withFakes.providerFakesUrl()).isEqualTo("http://127.0.0.1:18190");
        assertThat(withFakes.toBuilder().build().providerFakes()).isTrue();
    }

    @Test
    void theProviderFakesMayNotTakeAServicesPort() {
        LocalSuiteConfig.Builder builder =
                LocalSuiteConfig.fromEnvironment(ROOT, Map.of("HERALD_FAKE_PROVIDERS_PORT", "8182")).toBuilder()
                        .providerFakes(true);

        assertThatThrownBy(builder::build)
                .hasMessageContaining("port 8182 is configured twice (again for provider-fakes)");
    }

    @Test
    void credentialsNeverShowInToString() {
        LocalSuiteConfig config = LocalSuiteConfig.builder(ROOT)
                .demoTestKey("sk_test_supersecret")
                .adminToken("hat_supersecret")
                .build();

        assertThat(config.toString()).doesNotContain("supersecret");
    }
}
