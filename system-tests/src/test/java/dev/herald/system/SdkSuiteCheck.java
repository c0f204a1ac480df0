package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs an SDK's own check of the running suite (sdk/python/tests/suite_check.py, sdk/typescript/test/suite-check.mjs)
 * as a subprocess, with the gateway's URL and a fresh test-mode key in {@code HERALD_BASE_URL} and
 * {@code HERALD_API_KEY}, and expects it to exit 0 having printed {@code passedLine}.
 */
final class SdkSuiteCheck {
    private SdkSuiteCheck() {}

    static Path sdk(String name) {
        return Path.of(System.getProperty("herald.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("sdk")
                .resolve(name);
    }

    static void passes(
            String workspaceName, Path directory, Map<String, String> environment, String passedLine, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(List.of(command))
                .directory(directory.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        builder.environment().put("HERALD_BASE_URL", RunningSuite.baseUrl());
        builder.environment().put("HERALD_API_KEY", PostsPipelineIT.testKey(workspaceName));
        Process process = builder.start();
        process.getOutputStream().close();
        // The output is small (a line per check); read to the end, then the exit code.
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as(output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains(passedLine);
    }
}
