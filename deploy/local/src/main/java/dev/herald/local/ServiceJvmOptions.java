package dev.herald.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM options of a service's process in {@code ./herald up}, chosen for a small machine that runs the whole suite
 * (docs/local-runtime.md, "JVM settings", has the measurements behind each):
 *
 * <ul>
 *   <li>{@code -XX:+UseSerialGC}: one GC thread and no concurrent GC structures; live heaps are 15-30 MiB.
 *   <li>Heap: starts at {@value #INITIAL_HEAP} and grows on demand up to {@value #MAX_HEAP} (a 64 MiB start kept
 *       pages that an idle service never needs). mcp-server, which serves one person's tool calls, starts at
 *       {@value #SMALL_INITIAL_HEAP} and runs the quick compiler only: its C2 would spend memory for no throughput.
 *   <li>The module's AppCDS archive ({@code quarkus-app/app-cds.jsa}, built with the package when
 *       {@code quarkus.package.jar.appcds.enabled}) when it exists: the classes come mapped from the archive instead of
 *       being loaded, parsed and verified again, so a service is ready sooner. A stale or foreign archive is
 *       ignored by the JVM (with a warning in the log), never fatal.
 *   <li>Last, the operator's own options ({@code HERALD_SERVICE_JVM_OPTIONS}, space-separated): the last of two
 *       conflicting options wins, so these override the defaults above.
 * </ul>
 */
public final class ServiceJvmOptions {
    static final String INITIAL_HEAP = "-Xms32m";
    static final String SMALL_INITIAL_HEAP = "-Xms16m";
    static final String MAX_HEAP = "-Xmx320m";
    public static final String EXTRA_VARIABLE = "HERALD_SERVICE_JVM_OPTIONS";
    /** Where Quarkus writes a module's AppCDS archive, relative to {@code target/quarkus-app}. */
    static final String ARCHIVE = "app-cds.jsa";

    private ServiceJvmOptions() {}

    /** Options for {@code service} whose fast-jar lives in {@code quarkusApp}, then {@code extra}. */
    public static List<String> of(HeraldService service, Path quarkusApp, List<String> extra) {
        List<String> options = new ArrayList<>();
        if (service == HeraldService.MCP_SERVER) {
            options.addAll(List.of(SMALL_INITIAL_HEAP, MAX_HEAP, "-XX:TieredStopAtLevel=1"));
        } else {
            options.addAll(List.of(INITIAL_HEAP, MAX_HEAP));
        }
        options.add("-XX:+UseSerialGC");
        Path archive = quarkusApp.resolve(ARCHIVE);
        if (Files.isRegularFile(archive)) {
            options.add("-XX:SharedArchiveFile=" + archive);
        }
        options.addAll(extra);
        return options;
    }

    /** The options of a space-separated setting such as {@code HERALD_SERVICE_JVM_OPTIONS}; none when unset. */
    public static List<String> parse(String setting) {
        return setting == null || setting.isBlank()
                ? List.of()
                : Arrays.asList(setting.strip().split("\\s+"));
    }
}
