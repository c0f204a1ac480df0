package dev.herald.local;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * {@code supervision.properties}: what the {@link CrashSupervisor} of the running suite knows of each component (its
 * state, how often it was restarted, how its last run ended, why it was left down), for {@code ./herald status},
 * which runs in another process.
 */
final class SupervisionRecord {
    /** One component's line. */
    record Row(CrashSupervisor.State state, int restarts, String lastExit, String message) {}

    private SupervisionRecord() {}

    static void write(StateDirectory state, Map<String, Row> rows) throws IOException {
        Properties properties = new Properties();
        rows.forEach((name, row) -> {
            properties.setProperty(name + ".state", row.state().name());
            properties.setProperty(name + ".restarts", Integer.toString(row.restarts()));
            if (row.lastExit() != null) {
                properties.setProperty(name + ".last-exit", row.lastExit());
            }
            if (row.message() != null) {
                properties.setProperty(name + ".message", row.message());
            }
        });
        StringWriter text = new StringWriter();
        properties.store(text, "Herald supervisor, " + Instant.now());
        StateDirectory.writeAtomically(state.supervision(), text.toString(), false);
    }

    /** Each component's row; empty when no suite records any. */
    static Map<String, Row> read(StateDirectory state) throws IOException {
        Properties properties = new Properties();
        if (Files.exists(state.supervision())) {
            try (Reader reader = Files.newBufferedReader(state.supervision(), StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.endsWith(".state")) {
                String name = key.substring(0, key.length() - ".state".length());
                rows.put(
                        name,
                        new Row(
                                CrashSupervisor.State.valueOf(properties.getProperty(key)),
                                Integer.parseInt(properties.getProperty(name + ".restarts", "0")),
                                properties.getProperty(name + ".last-exit"),
                                properties.getProperty(name + ".message")));
            }
        }
        return rows;
    }
}
