package dev.herald.common.crypto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Keys read from the files of one directory (a Kubernetes Secret mounted as a volume, the local suite's key
 * directory) and read again every {@code interval}, so a rotation step takes effect without a restart: when the
 * files' text changes, the next snapshot is built from it. Files that do not make a usable snapshot (caught
 * between two writes, or a mistake) are logged and the last good snapshot is kept; the first read must succeed.
 * The files are read on a thread of their own, never on an event loop.
 *
 * @param <T> what the files make (a cipher, a set of verification keys)
 */
public final class KeyFiles<T> {
    private static final Logger LOG = Logger.getLogger(KeyFiles.class);

    private final String what;
    private final Path directory;
    private final List<String> names;
    private final Function<Map<String, Optional<String>>, T> build;
    private volatile Map<String, Optional<String>> read;
    private volatile T current;

    /**
     * Reads the files now (failing as {@code build} fails) and starts reading them again every {@code interval}.
     *
     * @param names the files; each may be absent ({@code build} decides what it needs)
     */
    public static <T> KeyFiles<T> watch(
            String what,
            Path directory,
            List<String> names,
            Duration interval,
            Function<Map<String, Optional<String>>, T> build) {
        KeyFiles<T> files = new KeyFiles<>(what, directory, names, build);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "herald-key-files");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(files::reload, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return files;
    }

    KeyFiles(String what, Path directory, List<String> names, Function<Map<String, Optional<String>>, T> build) {
        this.what = what;
        this.directory = directory;
        this.names = List.copyOf(names);
        this.build = build;
        this.read = readAll();
        this.current = Objects.requireNonNull(build.apply(read));
    }

    /** The snapshot made from the files as last read successfully. */
    public T current() {
        return current;
    }

    /** Reads the files and, when their text changed and makes a usable snapshot, makes it current. */
    void reload() {
        try {
            Map<String, Optional<String>> now = readAll();
            if (now.equals(read)) {
                return;
            }
            T next = Objects.requireNonNull(build.apply(now));
            read = now;
            current = next;
            LOG.infof("%s: read again from %s", what, directory);
        } catch (RuntimeException e) {
            // Never the files' text: the messages of build name settings and key ids only.
            LOG.warnf("%s: the files in %s are not usable (%s); keeping the keys read before", what, directory, e);
        }
    }

    private Map<String, Optional<String>> readAll() {
        Map<String, Optional<String>> texts = new LinkedHashMap<>();
        for (String name : names) {
            Path file = directory.resolve(name);
            try {
                texts.put(
                        name,
                        Optional.of(Files.readString(file, StandardCharsets.UTF_8)
                                        .trim())
                                .filter(text -> !text.isEmpty()));
            } catch (NoSuchFileException e) {
                texts.put(name, Optional.empty());
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + file, e);
            }
        }
        return texts;
    }
}
