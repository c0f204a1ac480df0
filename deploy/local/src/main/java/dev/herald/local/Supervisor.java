package dev.herald.local;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;
import java.util.OptionalLong;

/** The {@code ./herald up} process that owns a state directory, as {@code down} and {@code status} find it. */
final class Supervisor {
    /** What the supervisor's command line contains: the CLI's class, which {@code ./herald up} runs. */
    private static final String MARKER = HeraldCli.class.getName();

    private Supervisor() {}

    /** The live {@code up} process of this state directory, if any (a recycled pid does not count). */
    static Optional<ProcessTree> of(StateDirectory state) {
        OptionalLong pid = StateDirectory.readPid(state.supervisorPid());
        if (pid.isEmpty() || pid.getAsLong() == ProcessHandle.current().pid()) {
            return Optional.empty();
        }
        return ProcessTree.of(pid.getAsLong()).filter(p -> p.runs(MARKER));
    }

    /** Removes the supervisor's pid file and {@code ready} marker. */
    static void removeFiles(StateDirectory state) throws IOException {
        Files.deleteIfExists(state.ready());
        Files.deleteIfExists(state.supervisorPid());
    }
}
