package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceJvmOptionsTest {
    @TempDir
    Path quarkusApp;

    @Test
    void aServiceStartsWithASmallHeapThatMayGrowAndKeepsTheOptimisingCompiler() {
        assertThat(ServiceJvmOptions.of(HeraldService.POSTS, quarkusApp, List.of()))
                .containsExactly("-Xms32m", "-Xmx320m", "-XX:+UseSerialGC");
    }

    @Test
    void mcpServerStartsSmallerAndRunsTheQuickCompilerOnly() {
        assertThat(ServiceJvmOptions.of(HeraldService.MCP_SERVER, quarkusApp, List.of()))
                .containsExactly("-Xms16m", "-Xmx320m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    @Test
    void theModulesAppCdsArchiveIsUsedOnceItWasBuilt() throws IOException {
        Files.writeString(quarkusApp.resolve("app-cds.jsa"), "archive");

        assertThat(ServiceJvmOptions.of(HeraldService.API_GATEWAY, quarkusApp, List.of()))
                .contains("-XX:SharedArchiveFile=" + quarkusApp.resolve("app-cds.jsa"));
    }

    @Test
    void withoutAnArchiveNoneIsNamed() {
        assertThat(ServiceJvmOptions.of(HeraldService.API_GATEWAY, quarkusApp, List.of()))
                .noneMatch(option -> option.startsWith("-XX:SharedArchiveFile"));
    }

    @Test
    void theOperatorsOptionsComeLastSoTheyWinOverTheDefaults() {
        List<String> options = ServiceJvmOptions.of(
                HeraldService.USAGE, quarkusApp, ServiceJvmOptions.parse("  -Xms64m   -XX:TieredStopAtLevel=1 "));

        assertThat(options).endsWith("-Xms64m", "-XX:TieredStopAtLevel=1");
    }

    @Test
    void anUnsetOrBlankSettingAddsNothing() {
        assertThat(ServiceJvmOptions.parse(null)).isEmpty();
        assertThat(ServiceJvmOptions.parse("  ")).isEmpty();
    }

    @Test
    void theLaunchersEnvironmentReachesEveryServicesCommandLine() {
        LocalSuiteConfig config = LocalSuiteConfig.fromEnvironment(
                Path.of("/srv/herald"), Map.of(ServiceJvmOptions.EXTRA_VARIABLE, "-Xmx128m"));

        assertThat(config.serviceCommand().commandLine(HeraldService.PROFILES))
                .containsSubsequence("-Xmx320m", "-Xmx128m", "-jar", "quarkus-run.jar");
    }
}
