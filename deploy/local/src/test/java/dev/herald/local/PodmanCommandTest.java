package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PodmanCommandTest {

    @Test
    void aServiceRunsFromItsBuiltImageWithTheChartsSecurityContext(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("posts-service/target"));
        Files.writeString(root.resolve("posts-service/target/image.id"), "sha256:abc123\n");

        var command = new PodmanCommand(root)
                .commandLine(
                        HeraldService.POSTS,
                        Map.of("QUARKUS_HTTP_PORT", "18183", "HERALD_CURSOR_SECRET", "not-on-the-command-line"));

        assertThat(command)
                .startsWith("podman", "--runtime", "runc", "run")
                .contains(
                        "--name=herald-posts-service-18183",
                        "--network=host",
                        "--read-only",
                        "--read-only-tmpfs=false",
                        "--tmpfs=/tmp:rw,size=256m,mode=1777",
                        "--user=185:185",
                        "--cap-drop=ALL",
                        "--security-opt=no-new-privileges",
                        "--stop-timeout=30",
                        "--env=QUARKUS_SHUTDOWN_DELAY=5s",
                        "--env=HERALD_CURSOR_SECRET",
                        "--env=QUARKUS_HTTP_PORT")
                .endsWith("sha256:abc123");
        assertThat(String.join(" ", command)).doesNotContain("not-on-the-command-line");
        assertThat(new PodmanCommand(root).unavailableReason(HeraldService.POSTS))
                .isEmpty();
    }

    @Test
    void aServiceWhoseImageWasNeverBuiltCannotStart(@TempDir Path root) {
        assertThat(new PodmanCommand(root).unavailableReason(HeraldService.USAGE))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("usage-service/target/image.id does not exist")
                        .contains("podman"));
    }
}
