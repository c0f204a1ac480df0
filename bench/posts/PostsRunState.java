import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The posts benchmark's options (read from {@code --name=value} arguments), the run's state and the formatting its
 * layers share. PostsBench is split in layers, one file each, every layer extending the one below so that
 * SoakBench (which extends PostsBench) keeps reaching all of it: this state, {@link PostsLoad} (the load client),
 * {@link PostsPipeline} (drain, accepted -> published, the direct-SQL reference), {@link PostsReport} (the results
 * file) and {@link PostsBench} (the program: setup, warm-up, phases).
 */
abstract class PostsRunState extends BenchSupport {
    // ---------------------------------------------------------------- configuration

    /** The plan the benchmark puts every workspace on (test mode): scale, 300 API requests per calendar minute. */
    final int perMinute = intOpt("per-minute", 300);
    /** Test mode's publications per month per workspace (spec, "Test mode"). */
    final int publicationsPerMonth = intOpt("publications", 1000);
    /** Of each minute's limit, what the pacer may use: the rest covers setup requests and rounding. */
    final int usablePerMinute = perMinute - intOpt("per-minute-margin", 10);
    /** Open-loop requests later than this behind their schedule are dropped (keeps the per-minute bound). */
    static final long OPEN_LOOP_MAX_LATE_NANOS = 1_000_000_000L;

    final Path state = Path.of(opt("state", ".herald"));
    final Path src = Path.of(opt("src", "."));
    final Path benchDir = Path.of(opt("bench-dir", "bench"));
    final int gatewayPort = intOpt("gateway-port", 8080);
    final int postgresPort = intOpt("postgres-port", 54329);
    final List<Integer> connectionCounts = Arrays.stream(opt("connections", "8,16,32").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).map(Integer::parseInt).toList();
    final int warmupSeconds = intOpt("warmup", 120);
    final int warmupMaxSeconds = Math.max(warmupSeconds, intOpt("warmup-max", 300));
    static final int WARMUP_CHUNK_SECONDS = 15;
    String warmupOutcome = "";
    final int durationSeconds = intOpt("duration", 20);
    final String openRateOption = opt("open-rate", "auto");
    final int openConnections = intOpt("open-connections", 64);
    final int drainTimeoutSeconds = intOpt("drain-timeout", 120);
    final int backlogCap = intOpt("backlog", 500);
    final boolean sustainedPhase = !opt("sustained", "true").equals("false");
    Pg postsDb;
    Pg statsDb;
    final int pgbenchClients = intOpt("pgbench-clients", 8);
    final int pgbenchThreads = intOpt("pgbench-threads", 2);
    final int pgbenchWarmup = intOpt("pgbench-warmup", 5);
    final int clockTicks = intOpt("clk-tck", 100);
    final int waitIdleSeconds = intOpt("wait-idle", 60);
    final int setupThreads = intOpt("setup-threads", 4);
    final String psql = opt("psql", "psql");
    final String pgbench = opt("pgbench", "pgbench");
    final String runId = Long.toString(System.currentTimeMillis() / 1000, 36);

    /** Maximum rate the pacer hands out (posts/s), and the number of workspaces; one may derive the other. */
    double rate;
    int workspaceCount;
    String sizing;

    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final ExecutorService setupPool = Executors.newFixedThreadPool(Math.max(1, intOpt("setup-threads", 4)));
    final StringBuilder notes = new StringBuilder();
    String idleReport = "not checked";
    String rateLimitSeen = "-";
    String planAnswers = "-";
    String sanity = "-";
    String postgresSettings = "-";
    Workspace[] workspaces;

    record Workspace(String id, String key, String accountId) {
    }

    // ---------------------------------------------------------------- sizing

    /**
     * The workspace count from the pacer's rate (or the rate from a given count) so that no workspace passes its
     * per-minute limit in any calendar minute, nor its month's publications over every loaded second of the run.
     */
    void size() {
        String w = opt("workspaces", "auto");
        String r = opt("rate", "auto");
        double loadedSeconds = loadedSeconds();
        // The open loop may send up to OPEN_LOOP_MAX_LATE late, so a minute can hold 61 s of its schedule.
        double minuteSeconds = 60.0 + OPEN_LOOP_MAX_LATE_NANOS / 1e9;
        int publicationsUsable = publicationsPerMonth - 10;
        if (w.equals("auto")) {
            rate = r.equals("auto") ? 1250 : Double.parseDouble(r);
            int byMinute = (int) Math.ceil(rate * minuteSeconds / usablePerMinute);
            int byMonth = (int) Math.ceil(rate * loadedSeconds / publicationsUsable);
            workspaceCount = Math.max(byMinute, byMonth);
            sizing = String.format(Locale.ROOT, "%d workspaces for a pacer rate of at most %s posts/s: at least %d so that none "
                    + "passes %d of its %d requests in any calendar minute (rate x %.0f s / %d), at least %d so that none passes "
                    + "%d of its %d test publications over the %.0f loaded seconds (rate x %.0f s / %d)",
                    workspaceCount, fmt0(rate), byMinute, usablePerMinute, perMinute, minuteSeconds, usablePerMinute, byMonth,
                    publicationsUsable, publicationsPerMonth, loadedSeconds, loadedSeconds, publicationsUsable);
        } else {
            workspaceCount = Integer.parseInt(w);
            double safe = Math.min(workspaceCount * (double) usablePerMinute / minuteSeconds,
                    workspaceCount * (double) publicationsUsable / loadedSeconds);
            rate = r.equals("auto") ? Math.floor(safe) : Double.parseDouble(r);
            sizing = String.format(Locale.ROOT, "%d workspaces (given), pacer rate at most %s posts/s (%s; the limits allow %s)",
                    workspaceCount, fmt0(rate), r.equals("auto") ? "derived" : "given", fmt0(Math.floor(safe)));
            if (rate > safe + 0.5) {
                notes.append("- **The pacer's rate (").append(fmt0(rate)).append(" posts/s) is above what ").append(workspaceCount)
                        .append(" workspaces allow under the limits (").append(fmt0(Math.floor(safe)))
                        .append(" posts/s)**: 429s are expected if the system is that fast.\n");
            }
        }
    }

    /** Seconds of load the run may send at the pacer's rate (the publications allowance must last that long). */
    double loadedSeconds() {
        return warmupSeconds + (double) durationSeconds * connectionCounts.size()
                + (openRateOption.equals("0") ? 0 : durationSeconds) + (sustainedPhase ? durationSeconds : 0);
    }

    // ---------------------------------------------------------------- the posts' requests

    String body(long n, Workspace w) {
        return "{\"text\":\"Posts pipeline benchmark " + runId + ", post " + n
                + ": one LinkedIn sandbox target in test mode.\",\"account_ids\":[\"" + w.accountId + "\"]}";
    }

    byte[] request(long n, Workspace w) {
        byte[] json = body(n, w).getBytes(StandardCharsets.UTF_8);
        String head = "POST /api/v1/posts HTTP/1.1\r\nHost: 127.0.0.1:" + gatewayPort + "\r\nAuthorization: Bearer " + w.key
                + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nIdempotency-Key: pb-" + runId + "-" + n
                + "\r\nUser-Agent: herald-bench\r\nContent-Length: " + json.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(h, h.length + json.length);
        System.arraycopy(json, 0, all, h.length, json.length);
        return all;
    }

    /** The warm-up's last chunk (drained after the sustained phase, or at once without it). */
    Phase warmLast;
    /** The warm-up's 15 s chunks, for {@link TimeToSteady}. */
    final List<TimeToSteady.Chunk> warmupChunks = new ArrayList<>();
    TimeToSteady timeToSteady;
    /** Posts published per second while the sustained phase ran (any post: the pipeline's output). */
    double sustainedPublished;

    // ---------------------------------------------------------------- formatting

    static String ms(double nanos) {
        return Double.isNaN(nanos) || nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1_000_000.0);
    }

    static String fmtMs(double millis) {
        return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.0f", millis);
    }

    static String fmt0(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    // ---------------------------------------------------------------- setup calls

    Answer send(String method, String url, String bearer, String json, Map<String, String> headers) throws Exception {
        return send(http, Duration.ofSeconds(30), method, url, bearer, json, headers);
    }
}
