package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A 300 MiB source streamed to an upload with the heap measured (issue 7: "a 300 MiB source streamed with heap under
 * 256 MiB"). The run ({@link MediaStreamingHeapCheck}) happens in a JVM started here with {@code -Xmx256m}, whatever heap
 * the test JVM has: a path that held the file could not even finish there, and the sampled peak (heap used after GC)
 * must stay under 256 MiB. The source is generated on the fly and the receiver only hashes what it gets.
 */
class MediaStreamingHeapTest {
    private static final long SIZE = 300L * 1024 * 1024;
    private static final long LIMIT = 256L * 1024 * 1024;

    @Test
    void aThreeHundredMebibyteSourceIsStreamedWithTheHeapUnder256MiB() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MediaStreamingHeapCheck.class.getName(),
                        Long.toString(SIZE)))
                .redirectErrorStream(true)
                .start();
        Map<String, String> results = new HashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                int equals = line.indexOf('=');
                if (equals > 0 && !line.contains(" ")) {
                    results.put(line.substring(0, equals), line.substring(equals + 1));
                }
            }
        }
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output.toString()).isZero();

        assertThat(Long.parseLong(results.get("max_heap")))
                .as("the run's maximum heap")
                .isLessThanOrEqualTo(LIMIT);
        assertThat(results.get("status")).isEqualTo("201");
        assertThat(Long.parseLong(results.get("received_bytes"))).isEqualTo(SIZE);
        assertThat(results.get("received_sha256")).isEqualTo(results.get("expected_sha256"));
        assertThat(Long.parseLong(results.get("samples")))
                .as("heap samples taken while streaming")
                .isPositive();
        assertThat(Long.parseLong(results.get("peak_heap")))
                .as("peak heap used after GC while streaming")
                .isPositive()
                .isLessThan(LIMIT);
        System.out.printf(
                "300 MiB streamed in %s ms, peak heap after GC %d MiB%n",
                results.get("millis"), Long.parseLong(results.get("peak_heap")) >> 20);
    }
}
