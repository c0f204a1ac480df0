package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeraldCliTest {
    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void statusSaysNotRunningWithExitCodeThree() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        StateDirectory state = new StateDirectory(root.resolve("state"));
        state.create();
        StateDirectory.writePid(state.pidFile("api-gateway"), gone.pid());

        int exit = cli().run(new String[] {"status"});

        assertThat(exit).isEqualTo(HeraldCli.NOT_RUNNING);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Herald is not running.");
    }

    @Test
    void downWhenNothingRanSucceeds() {
        int exit = cli().run(new String[] {"down"});

        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Herald is not running");
    }

    @Test
    void helpAndUnknownCommands() {
        assertThat(cli().run(new String[] {"--help"})).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("up [--detach]", "down", "status");
        assertThat(cli().run(new String[] {"restart"})).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown command: restart");
    }

    @Test
    void detachIsLeftToTheScript() {
        assertThat(cli().run(new String[] {"up", "--detach"})).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--detach is handled by the ./herald script");
    }

    private HeraldCli cli() {
        return new HeraldCli(
                root,
                Map.of("HERALD_STATE_DIR", root.resolve("state").toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
