package dev.herald.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * {@code logs/herald.log}: the suite's own story, each line stamped with its time: what was started and stopped, and
 * every crash and restart the {@link CrashSupervisor} saw. Appended to (a detached {@code up}'s output goes to the same
 * file, also appending), and never a reason to fail: a line that cannot be written is dropped.
 */
final class HeraldLog implements Consumer<String> {
    private final Path file;

    HeraldLog(Path file) {
        this.file = file;
    }

    @Override
    public synchronized void accept(String line) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file,
                    Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            // The console (or the test's output) still has the line.
        }
    }
}
