import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the bench programs (Bench, PostsBench and SoakBench, WebhooksBench) share besides the /proc sampling
 * ({@link CpuSnapshot}), the load connections ({@link HttpConnection}) and the PostgreSQL polls ({@link Pg}): the
 * options, the setup calls to the API, the suite's state files, the results file and the log line. The programs
 * extend this class to call these by their simple names, as they did when each had its own copy: Java cannot import
 * static members from the unnamed package the single-directory bench sources are in. The scripts compile the programs
 * with the files of bench/support (lib.sh, bench_compile).
 */
abstract class BenchSupport {
    /** The program's {@code --name=value} arguments (read before any instance is made: the fields read them). */
    static final Map<String, String> OPTIONS = new LinkedHashMap<>();

    static void parseOptions(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            OPTIONS.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
    }

    static String opt(String name, String fallback) {
        return OPTIONS.getOrDefault(name, fallback);
    }

    static int intOpt(String name, int fallback) {
        return Integer.parseInt(opt(name, String.valueOf(fallback)));
    }

    /** Prints the report, and writes it to {@code --results} when given. */
    static void writeResults(String report) throws IOException {
        System.out.println();
        System.out.println(report);
        String results = opt("results", "");
        if (!results.isEmpty()) {
            Files.createDirectories(Path.of(results).toAbsolutePath().getParent());
            Files.writeString(Path.of(results), report);
            log("results written to " + results);
        }
    }

    /** A setup call with a bearer token and JSON (none when {@code json} is null) through {@code http}. */
    static Answer send(
            HttpClient http,
            Duration timeout,
            String method,
            String url,
            String bearer,
            String json,
            Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Authorization", "Bearer " + bearer)
                .header("Accept", "application/json");
        headers.forEach(b::header);
        if (json != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r);
    }

    /** The first group of {@code regex} in the answer, which must have {@code status}; else fails naming {@code what}. */
    static String require(Answer a, int status, String regex, String what) {
        Matcher m = Pattern.compile(regex).matcher(a.body);
        if (a.status != status || !m.find()) {
            throw new IllegalStateException(what + " answered " + a.status + ": " + abbreviate(a.body, 400));
        }
        return m.group(1);
    }

    static String abbreviate(String s, int max) {
        String flat = s.replaceAll("\\s+", " ");
        return flat.length() <= max ? flat : flat.substring(0, max) + "...";
    }

    /** A properties file of the suite's state directory (credentials, secrets.properties). */
    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    // ---------------------------------------------------------------- the results file (Markdown)

    static void row(StringBuilder out, String k, String v) {
        out.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n");
    }

    static String share(long part, long total) {
        return total <= 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * part / total);
    }

    static String verdict(boolean met) {
        return met ? "met" : "**not met**";
    }

    /** The nearest-rank percentile {@code q} of {@code sorted} (exact, no buckets); -1 when there is none. */
    static long pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** CPU ticks of the suite and the bench client, without the machine's other processes. */
    static long sumButOther(Map<String, Long> cpu) {
        return cpu.entrySet().stream()
                .filter(e -> !e.getKey().equals("other"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    static void log(String message) {
        System.out.println("[bench " + LocalTime.now().withNano(0) + "] " + message);
        System.out.flush();
    }
}
