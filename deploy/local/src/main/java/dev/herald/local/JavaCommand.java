package dev.herald.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The start of every child JVM's command line (services, the provider fakes, the Kafka broker and its storage
 * tool): this JVM's {@code java}, the options of system property {@value #EXTRA_OPTIONS}
 * (space-separated), then the given ones. The build's tests set it to {@code -XX:TieredStopAtLevel=1} (pom.xml):
 * short-lived JVMs that mostly start up spend far less CPU with the quick compiler alone. {@code ./herald up} sets
 * nothing, so a running suite keeps the JIT's full optimisation.
 */
public final class JavaCommand {
    public static final String EXTRA_OPTIONS = "herald.child-jvm.options";

    private JavaCommand() {}

    public static List<String> with(String... options) {
        List<String> command = new ArrayList<>();
        command.add(launcher());
        String extra = System.getProperty(EXTRA_OPTIONS, "").strip();
        if (!extra.isEmpty()) {
            command.addAll(Arrays.asList(extra.split("\\s+")));
        }
        command.addAll(Arrays.asList(options));
        return command;
    }

    /** This JVM's own {@code java} launcher. */
    public static String launcher() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
