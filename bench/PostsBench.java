import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Posts pipeline benchmark: the load client, the accepted-to-published measurement and the direct-SQL reference
 * in one JDK-only file, run by bench/posts-throughput.sh against a suite it started
 * ({@code java bench/PostsBench.java --name=value ...}). See bench/README.md, section "Posts pipeline".
 *
 * <p>{@code POST /api/v1/posts} through the gateway with test keys, one LinkedIn sandbox target per post, spread
 * round-robin over as many workspaces as the plans' limits require (limits on: scale's 300 requests per calendar
 * minute per workspace and mode, 1,000 test publications per month). A global pacer keeps every workspace under
 * its per-minute limit whatever the system's speed: request slots are handed out at most {@code --rate} per
 * second (no catch-up after a stall) and slot k goes to workspace k mod W, so a workspace never gets more than
 * {@code rate / W} requests per second. Every 202's latency is kept (exact percentiles), every other answer is
 * counted by status and error code, and every accepted post's id is kept to read its fate from posts-service's
 * database afterwards.
 */
public class PostsBench {

    // ---------------------------------------------------------------- configuration

    static final Map<String, String> opts = new LinkedHashMap<>();

    static String opt(String name, String fallback) {
        return opts.getOrDefault(name, fallback);
    }

    static int intOpt(String name, int fallback) {
        return Integer.parseInt(opt(name, String.valueOf(fallback)));
    }

    /** Reads {@code --name=value} arguments into {@link #opts} (before any instance is made: fields read them). */
    static void parseOptions(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            opts.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
    }

    public static void main(String[] args) throws Exception {
        parseOptions(args);
        PostsBench bench = new PostsBench();
        try {
            bench.run();
        } finally {
            bench.setupPool.shutdownNow();
        }
    }

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
    final BacklogGate gate = new BacklogGate();
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

    void run() throws Exception {
        Properties credentials = load(state.resolve("credentials"));
        String adminToken = credentials.getProperty("HERALD_ADMIN_TOKEN");
        String gateway = "http://127.0.0.1:" + gatewayPort;
        size();
        log("sizing: " + sizing);
        postsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "herald_posts");
        statsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "postgres");
        postgresSettings = psqlQuery("herald_posts", "select current_setting('server_version') || ', synchronous_commit ' "
                + "|| current_setting('synchronous_commit') || ', fsync ' || current_setting('fsync') || ', shared_buffers ' "
                + "|| current_setting('shared_buffers') || ', max_connections ' || current_setting('max_connections')").trim();
        log("PostgreSQL " + postgresSettings);

        // ---- setup: W workspaces, each with a test key, the scale plan (comp) and one LinkedIn sandbox account
        setup(gateway, adminToken);

        // ---- one post by hand: must be 202 with a pst_ id
        probe(gateway);

        idleReport = waitForQuietMachine();
        log("machine: " + idleReport);

        // ---- warm-up (JIT), then each closed-loop connection count, the sustained phase, the open loop; the
        // pipeline drains between phases
        gate.start();
        Pacer pacer = new Pacer(rate);
        warmUp(pacer);
        int maxConnections = connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(8);
        Phase sustained = null;
        if (sustainedPhase) {
            // Straight after the warm-up, which ran the same gated loop: the pipeline is in its steady state.
            sustained = closedLoop("sustained: closed loop, " + maxConnections + " connections, backlog at most " + backlogCap,
                    maxConnections, durationSeconds, pacer, false, true);
            sustainedPublished = Long.parseLong(postsDb.query("select count(*) from posts where status = 'published' and finalized_at >= "
                    + "to_timestamp(" + sustained.startedAt.toEpochMilli() / 1000.0 + ") and finalized_at < to_timestamp("
                    + sustained.endedAt.toEpochMilli() / 1000.0 + ")").get(0)[0]) * 1e9 / sustained.nanos;
            log("  " + sustained.summary() + ", sending paused " + fmt0(sustained.gateClosedNanos / 1e9) + " s, published "
                    + fmt0(sustainedPublished) + " posts/s");
            drain(sustained);
        } else if (warmLast != null) {
            drain(warmLast);
        }
        List<Phase> phases = new ArrayList<>();
        for (int c : connectionCounts) {
            Phase p = closedLoop("closed loop, " + c + " connections", c, durationSeconds, pacer, false, false);
            log("  " + p.summary());
            drain(p);
            phases.add(p);
        }
        Phase best = phases.stream().max((a, b) -> Double.compare(a.throughput(), b.throughput())).orElseThrow();
        double openRate = openRateOption.equals("auto")
                ? Math.floor(sustained != null ? 0.8 * Math.min(sustained.throughput(), sustainedPublished) : 0.7 * best.throughput())
                : Double.parseDouble(openRateOption);
        Phase open = null;
        if (openRate > 0) {
            if (openRate > rate) {
                notes.append("- The open-loop rate was capped at the pacer's ").append(fmt0(rate))
                        .append(" posts/s (asked ").append(fmt0(openRate)).append("): more would pass the workspaces' per-minute limit.\n");
                openRate = rate;
            }
            open = openLoop("open loop, " + fmt0(openRate) + " posts/s offered", openRate, durationSeconds);
            log("  " + open.summary());
            drain(open);
        }
        gate.stop();
        List<Phase> measured = new ArrayList<>();
        if (sustained != null) {
            measured.add(sustained);
        }
        measured.addAll(phases);
        if (open != null) {
            measured.add(open);
        }

        // ---- accepted -> published, from posts-service's database
        publishedLatency(measured);

        // ---- the physical reference: the acceptance path's SQL writes with pgbench, on an idle suite
        Reference reference = directSql();

        writeResults(report(measured, best, sustained, open, reference));
    }

    /** One post by hand, with the first workspace: must be 202 with a pst_ id (sets {@link #sanity}). */
    void probe(String gateway) throws Exception {
        Workspace first = workspaces[0];
        Answer probe = send("POST", gateway + "/api/v1/posts", first.key, body(-1, first),
                Map.of("Idempotency-Key", "pb-" + runId + "-probe"));
        if (probe.status != 202 || !probe.body.contains("\"pst_")) {
            throw new IllegalStateException("POST /api/v1/posts answered " + probe.status + ": " + abbreviate(probe.body, 400));
        }
        sanity = "202, " + probe.body.length() + " bytes, X-RateLimit-Limit " + probe.header("x-ratelimit-limit");
        log("sanity: POST /api/v1/posts -> " + sanity);
    }

    /** Prints the report, and writes it to --results when given. */
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

    // ---------------------------------------------------------------- setup

    void setup(String gateway, String adminToken) throws Exception {
        log("setup: " + workspaceCount + " workspaces (workspace, test key, scale plan, LinkedIn sandbox account), "
                + setupThreads + " at a time");
        long t0 = System.nanoTime();
        workspaces = new Workspace[workspaceCount];
        Map<String, Integer> planStatuses = Collections.synchronizedMap(new TreeMap<>());
        List<Future<?>> futures = new ArrayList<>();
        String[] limitSeen = new String[1];
        for (int i = 0; i < workspaceCount; i++) {
            int index = i;
            futures.add(setupPool.submit(() -> {
                Answer ws = send("POST", gateway + "/admin/v1/workspaces", adminToken,
                        "{\"name\":\"posts bench " + runId + " " + index + "\"}", Map.of());
                String workspaceId = require(ws, 201, "\"id\":\"(ws_[0-9a-zA-Z]+)\"", "create workspace");
                Answer key = send("POST", gateway + "/admin/v1/workspaces/" + workspaceId + "/api-keys", adminToken,
                        "{\"mode\":\"test\"}", Map.of());
                String apiKey = require(key, 201, "\"secret\":\"(sk_test_[A-Za-z0-9]+)\"", "create test key");
                Answer plan = send("PUT", gateway + "/admin/v1/workspaces/" + workspaceId + "/plan", adminToken,
                        "{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}", Map.of());
                planStatuses.merge(String.valueOf(plan.status), 1, Integer::sum);
                if (plan.status != 200) {
                    throw new IllegalStateException("PUT plan answered " + plan.status + ": " + abbreviate(plan.body, 300));
                }
                Answer account = send("POST", gateway + "/api/v1/accounts", apiKey,
                        "{\"platform\":\"linkedin\",\"username\":\"bench\"}", Map.of());
                String accountId = require(account, 201, "\"id\":\"(acc_[0-9a-zA-Z]+)\"", "create sandbox account");
                limitSeen[0] = account.header("x-ratelimit-limit");
                workspaces[index] = new Workspace(workspaceId, apiKey, accountId);
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        planAnswers = planStatuses.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", "));
        rateLimitSeen = limitSeen[0];
        log(String.format(Locale.ROOT, "setup done in %.1f s; plan changes answered %s; X-RateLimit-Limit after the change: %s",
                (System.nanoTime() - t0) / 1e9, planAnswers, rateLimitSeen));
        if (!String.valueOf(perMinute).equals(rateLimitSeen)) {
            notes.append("- The gateway announced `X-RateLimit-Limit: ").append(rateLimitSeen).append("` after the plan change, not ")
                    .append(perMinute).append(": the sizing assumed the scale plan's limit.\n");
        }
    }

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

    /**
     * Closed loop at the largest connection count in 15 s chunks, with the backlog gate (so delivery runs and warms
     * up too, and no backlog is left for the measurement), at least --warmup and at most --warmup-max seconds,
     * until the accepted rate is steady (the last two chunks no more than 5% above the two before them) and the
     * JIT compiler threads use under 10% of the machine. Eight JVMs share two cores here, and at tens of posts per second their JIT compilers need minutes to
     * compile the hot paths (C2 threads took a third of the services' CPU three minutes into a run). Then the
     * pipeline drains.
     */
    void warmUp(Pacer pacer) throws Exception {
        int connections = connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(8);
        log("warm-up: closed loop, " + connections + " connections, 15 s chunks until the rate is steady (" + warmupSeconds
                + " to " + warmupMaxSeconds + " s)");
        List<String> trace = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        long accepted = 0;
        Phase last = null;
        int elapsed = 0;
        boolean steady = false;
        while (elapsed < warmupMaxSeconds && !budgetExhausted()) {
            last = closedLoop("warm-up", connections, WARMUP_CHUNK_SECONDS, pacer, true, true);
            elapsed += WARMUP_CHUNK_SECONDS;
            accepted += last.accepted();
            rates.add(last.throughput());
            trace.add(fmt0(last.throughput()));
            log("  warm-up " + elapsed + " s: " + last.summary() + ", JIT compiler threads "
                    + share(last.threadsLoad.getOrDefault(CpuSnapshot.JIT, 0L), last.loadTotal));
            int n = rates.size();
            // Steady: the last 30 s no more than 5% above the 30 s before, and the JIT compilers of the suite's JVMs
            // under 10% of the machine (the accepted rate alone climbs too slowly to tell).
            double jit = last.loadTotal == 0 ? 1 : (double) last.threadsLoad.getOrDefault(CpuSnapshot.JIT, 0L) / last.loadTotal;
            steady = n >= 4 && rates.get(n - 1) + rates.get(n - 2) <= 1.05 * (rates.get(n - 3) + rates.get(n - 4)) && jit < 0.10;
            if (elapsed >= warmupSeconds && steady) {
                break;
            }
        }
        warmupOutcome = elapsed + " s, " + accepted + " posts accepted (posts/s per 15 s chunk: " + String.join(", ", trace) + ")";
        if (!steady) {
            notes.append("- The warm-up reached its maximum (").append(elapsed).append(" s) before a steady rate (posts/s per 15 s chunk: ")
                    .append(String.join(", ", trace)).append("); the measurement may still include JIT warm-up.\n");
        }
        warmLast = last;
    }

    /** The warm-up's last chunk (drained after the sustained phase, or at once without it). */
    Phase warmLast;
    /** Posts published per second while the sustained phase ran (any post: the pipeline's output). */
    double sustainedPublished;

    // ---------------------------------------------------------------- load

    /**
     * Hands out request slots: at most {@code rate} per second overall, never catching up after a stall (a slot
     * is never earlier than the previous one plus 1/rate, nor earlier than now), and slot k is workspace k mod W.
     * So each workspace's requests are at least W/rate seconds apart, in every phase and across phases.
     */
    final class Pacer {
        final long intervalNanos;
        long next = System.nanoTime();
        long counter;

        Pacer(double rate) {
            this.intervalNanos = (long) Math.ceil(1e9 / rate);
        }

        /** Waits for the next slot; answers its number. */
        long acquire() {
            long slot;
            long k;
            synchronized (this) {
                long now = System.nanoTime();
                slot = Math.max(next, now);
                next = slot + intervalNanos;
                k = counter++;
            }
            long wait = slot - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            return k;
        }
    }

    static final class Phase {
        final String name;
        final int connections;
        final boolean openLoop;
        double offeredRate;
        long nanos;
        long startNanos;
        Instant startedAt;
        Instant endedAt;
        final LongList latencies = new LongList();
        final LongList serviceTimes = new LongList();
        final Map<String, Long> others = new TreeMap<>();
        final List<String> postIds = new ArrayList<>();
        long ioErrors;
        long dropped;
        CpuSnapshot cpuBefore;
        boolean gated;
        long gateClosedNanos;
        Map<String, Long> threadsLoad = new TreeMap<>();
        Map<String, Long> threadsAll = new TreeMap<>();
        Map<String, long[]> dbBefore = new TreeMap<>();
        Map<String, long[]> dbWork = new TreeMap<>();
        long[] perSecond = new long[0];
        Map<String, Long> cpuLoad = new TreeMap<>();
        long loadTotal;
        long loadBusy;
        Map<String, Long> cpuAll = new TreeMap<>();
        long allTotal;
        long allBusy;
        // from the database
        double drainSeconds = Double.NaN;
        String drainNote = "";
        Published published;

        Phase(String name, int connections, boolean openLoop) {
            this.name = name;
            this.connections = connections;
            this.openLoop = openLoop;
        }

        long accepted() {
            return latencies.size;
        }

        long total() {
            return accepted() + others.values().stream().mapToLong(Long::longValue).sum();
        }

        double throughput() {
            return nanos == 0 ? 0 : accepted() * 1e9 / nanos;
        }

        long[] sorted() {
            long[] a = latencies.toArray();
            Arrays.sort(a);
            return a;
        }

        long rateLimited() {
            return others.entrySet().stream().filter(e -> e.getKey().contains("rate_limit_exceeded")).mapToLong(Map.Entry::getValue).sum();
        }

        String summary() {
            long[] s = sorted();
            return String.format(Locale.ROOT, "%s: %.1f s, %d accepted (%.0f posts/s), others %s, io errors %d%s, p50 %s ms, p99 %s ms, CPU busy %s (other processes %s)",
                    name, nanos / 1e9, accepted(), throughput(), others, ioErrors, openLoop ? ", dropped " + dropped : "",
                    ms(pct(s, 0.5)), ms(pct(s, 0.99)), share(loadBusy, loadTotal), share(cpuLoad.getOrDefault("other", 0L), loadTotal));
        }
    }

    /**
     * Closed loop: each connection sends its next post when the previous answer is read, through the pacer. With
     * {@code gated}, no post is sent while the backlog gate is closed (too many posts queued or publishing).
     */
    Phase closedLoop(String name, int connections, int seconds, Pacer pacer, boolean quiet, boolean gated) throws Exception {
        if (!quiet) {
            log(name + ": " + seconds + " s, pacer at most " + fmt0(rate) + " posts/s over " + workspaceCount + " workspaces");
        }
        Phase phase = new Phase(name, connections, false);
        phase.gated = gated;
        long closedBefore = gate.closedNanos();
        Worker[] workers = new Worker[connections];
        for (int i = 0; i < connections; i++) {
            workers[i] = new Worker(phase);
            workers[i].connect();
        }
        gate.enabled = gated;
        runWorkers(phase, workers, seconds, w -> {
            while (System.nanoTime() < w.deadline) {
                if (gated && !gate.open) {
                    LockSupport.parkNanos(20_000_000L);
                    continue;
                }
                long k = pacer.acquire();
                if (System.nanoTime() >= w.deadline || !takeFromBudget()) {
                    break;
                }
                long t0 = System.nanoTime();
                w.exchange(k, t0, t0);
            }
        });
        gate.enabled = false;
        phase.gateClosedNanos = gate.closedNanos() - closedBefore;
        return phase;
    }

    /**
     * Closes while more than --backlog posts are queued or publishing (polled every 250 ms from herald_posts), and
     * opens again below half of it: a closed loop that waits on it accepts, over time, as fast as the pipeline
     * publishes.
     */
    final class BacklogGate {
        volatile boolean enabled;
        volatile boolean open = true;
        volatile long pending;
        long closedTotal;
        long closedSince = -1;
        Thread thread;
        volatile boolean running = true;

        void start() {
            thread = new Thread(() -> {
                while (running) {
                    try {
                        if (enabled) {
                            pending = Long.parseLong(postsDb.query("select count(*) from posts where status in ('queued', 'publishing')").get(0)[0]);
                            synchronized (this) {
                                if (open && pending > backlogCap) {
                                    open = false;
                                    closedSince = System.nanoTime();
                                } else if (!open && pending < backlogCap / 2) {
                                    open = true;
                                    closedTotal += System.nanoTime() - closedSince;
                                }
                            }
                        } else if (!open) {
                            synchronized (this) {
                                open = true;
                                closedTotal += System.nanoTime() - closedSince;
                            }
                        }
                        Thread.sleep(250);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        log("backlog gate: " + e);
                    }
                }
            }, "backlog-gate");
            thread.setDaemon(true);
            thread.start();
        }

        synchronized long closedNanos() {
            return closedTotal + (open ? 0 : System.nanoTime() - closedSince);
        }

        void stop() {
            running = false;
            thread.interrupt();
        }
    }

    /**
     * Open loop: request k is due at start + k / rate whatever the answers do; latency runs from that due time
     * (so a backlog in the client counts, no coordinated omission). A request more than
     * {@link #OPEN_LOOP_MAX_LATE_NANOS} late is dropped and counted, which bounds any workspace's requests in a
     * minute (the schedule gives each at most rate / W per second).
     */
    Phase openLoop(String name, double openRate, int seconds) throws Exception {
        log(name + ": " + seconds + " s, " + openConnections + " connections");
        Phase phase = new Phase(name, openConnections, true);
        phase.offeredRate = openRate;
        Worker[] workers = new Worker[openConnections];
        for (int i = 0; i < openConnections; i++) {
            workers[i] = new Worker(phase);
            workers[i].connect();
        }
        AtomicInteger nextSlot = new AtomicInteger();
        double interval = 1e9 / openRate;
        long base = slotBase.get();
        runWorkers(phase, workers, seconds, w -> {
            while (true) {
                int k = nextSlot.getAndIncrement();
                long due = w.start + (long) (k * interval);
                if (due >= w.deadline) {
                    break;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                long t0 = System.nanoTime();
                if (t0 - due > OPEN_LOOP_MAX_LATE_NANOS) {
                    w.dropped++;
                    continue;
                }
                if (!takeFromBudget()) {
                    break;
                }
                w.exchange(base + k, due, t0);
            }
        });
        slotBase.addAndGet(nextSlot.get());
        return phase;
    }

    /**
     * Every post sent, against the workspaces' publications: slots go round-robin, so no workspace gets more than
     * sent / W + 1; the load stops (and the results say so) before any could pass 990 of its 1,000.
     */
    final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    volatile boolean budgetNoted;

    boolean takeFromBudget() {
        if (sent.incrementAndGet() <= (long) (publicationsPerMonth - 12) * workspaceCount) {
            return true;
        }
        sent.decrementAndGet();
        if (!budgetNoted) {
            budgetNoted = true;
            notes.append("- **The workspaces' test publications ran out** (").append(publicationsPerMonth - 12).append(" posts each sent): ")
                    .append("the load stopped early; raise --workspaces.\n");
        }
        return false;
    }

    boolean budgetExhausted() {
        return sent.get() >= (long) (publicationsPerMonth - 12) * workspaceCount;
    }

    /** Request numbers of the open loop continue after the pacer's (idempotency keys stay unique). */
    final java.util.concurrent.atomic.AtomicLong slotBase = new java.util.concurrent.atomic.AtomicLong(1L << 40);

    interface Loop {
        void run(Worker w) throws IOException;
    }

    void runWorkers(Phase phase, Worker[] workers, int seconds, Loop loop) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[workers.length];
        for (int i = 0; i < workers.length; i++) {
            Worker w = workers[i];
            threads[i] = new Thread(() -> {
                try {
                    go.await();
                    loop.run(w);
                } catch (Exception e) {
                    w.failure = e;
                }
            }, "load-" + i);
            threads[i].start();
        }
        phase.dbBefore = databaseCounters();
        CpuSnapshot before = CpuSnapshot.take(state);
        long start = System.nanoTime();
        long deadline = start + seconds * 1_000_000_000L;
        for (Worker w : workers) {
            w.start = start;
            w.deadline = deadline;
        }
        phase.startNanos = start;
        phase.startedAt = Instant.now();
        phase.perSecond = new long[seconds + 2];
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        phase.endedAt = Instant.now();
        CpuSnapshot after = CpuSnapshot.take(state);
        phase.nanos = end - start;
        phase.cpuLoad = after.minus(before);
        phase.loadTotal = after.systemTotal - before.systemTotal;
        phase.loadBusy = after.systemBusy - before.systemBusy;
        phase.cpuBefore = before;
        phase.threadsLoad = after.threadsMinus(before);
        for (Worker w : workers) {
            w.close();
            if (w.failure != null) {
                throw new IllegalStateException("load worker failed", w.failure);
            }
            phase.latencies.addAll(w.latencies);
            phase.serviceTimes.addAll(w.serviceTimes);
            w.others.forEach((k, v) -> phase.others.merge(k, v, Long::sum));
            phase.postIds.addAll(w.postIds);
            phase.ioErrors += w.ioErrors;
            phase.dropped += w.dropped;
            for (int i = 0; i < w.perSecond.length && i < phase.perSecond.length; i++) {
                phase.perSecond[i] += w.perSecond[i];
            }
        }
        if (phase.ioErrors > 0) {
            phase.others.merge("I/O error", phase.ioErrors, Long::sum);
        }
    }

    final class Worker {
        final Phase phase;
        volatile long deadline;
        volatile long start;
        Socket socket;
        InputStream in;
        OutputStream out;
        final LongList latencies = new LongList();
        final LongList serviceTimes = new LongList();
        final Map<String, Long> others = new TreeMap<>();
        final List<String> postIds = new ArrayList<>();
        final long[] perSecond = new long[4096];
        long ioErrors;
        long dropped;
        Exception failure;
        final byte[] line = new byte[8192];
        byte[] bodyBuffer = new byte[8192];
        int bodyLength;
        int lastStatus;

        Worker(Phase phase) {
            this.phase = phase;
        }

        void connect() throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            socket.connect(new InetSocketAddress("127.0.0.1", gatewayPort), 5_000);
            in = new BufferedInputStream(socket.getInputStream(), 65536);
            out = socket.getOutputStream();
        }

        void close() {
            try {
                if (socket != null) {
                    socket.close();
                }
            } catch (IOException ignored) {
                // closing
            }
        }

        /** One request: slot k's workspace; latency from {@code from} (due time), service time from {@code sent}. */
        void exchange(long k, long from, long sent) {
            Workspace w = workspaces[(int) Math.floorMod(k, (long) workspaces.length)];
            byte[] request = request(k, w);
            try {
                out.write(request);
                out.flush();
                boolean keepAlive = readResponse();
                long t1 = System.nanoTime();
                if (lastStatus == 202) {
                    latencies.add(t1 - from);
                    serviceTimes.add(t1 - sent);
                    String id = find(bodyBuffer, bodyLength, "\"id\":\"pst_");
                    if (id != null) {
                        postIds.add("pst_" + id);
                    } else {
                        others.merge("202 without a pst_ id", 1L, Long::sum);
                    }
                    int second = (int) ((t1 - start) / 1_000_000_000L);
                    if (second >= 0 && second < perSecond.length) {
                        perSecond[second]++;
                    }
                } else {
                    String code = find(bodyBuffer, bodyLength, "\"code\":\"");
                    others.merge(lastStatus + " " + (code == null ? "(no error code)" : code), 1L, Long::sum);
                }
                if (!keepAlive) {
                    close();
                    connect();
                }
            } catch (IOException e) {
                ioErrors++;
                close();
                try {
                    Thread.sleep(10);
                    connect();
                } catch (Exception again) {
                    // the next request fails fast and counts again
                }
            }
        }

        /** Reads one whole answer, its body into bodyBuffer; returns whether the connection stays open. */
        boolean readResponse() throws IOException {
            int n = readLine();
            if (n < 12) {
                throw new IOException("bad status line");
            }
            lastStatus = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
            long contentLength = -1;
            boolean chunked = false;
            boolean keepAlive = true;
            while ((n = readLine()) > 0) {
                String h = new String(line, 0, n, StandardCharsets.ISO_8859_1);
                int colon = h.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = h.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> contentLength = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "connection" -> keepAlive = !value.equalsIgnoreCase("close");
                    default -> { }
                }
            }
            bodyLength = 0;
            if (chunked) {
                while (true) {
                    n = readLine();
                    String size = new String(line, 0, n, StandardCharsets.ISO_8859_1);
                    int semi = size.indexOf(';');
                    long chunk = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                    if (chunk == 0) {
                        while (readLine() > 0) {
                            // trailers
                        }
                        break;
                    }
                    readBody((int) chunk);
                    readLine();
                }
            } else if (contentLength >= 0) {
                readBody((int) contentLength);
            } else {
                throw new IOException("answer without length");
            }
            return keepAlive;
        }

        void readBody(int count) throws IOException {
            if (bodyLength + count > bodyBuffer.length) {
                bodyBuffer = Arrays.copyOf(bodyBuffer, Math.max(bodyBuffer.length * 2, bodyLength + count));
            }
            int read = in.readNBytes(bodyBuffer, bodyLength, count);
            if (read < count) {
                throw new IOException("connection closed in body");
            }
            bodyLength += count;
        }

        int readLine() throws IOException {
            int n = 0;
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed");
                }
                if (b == '\n') {
                    return n > 0 && line[n - 1] == '\r' ? n - 1 : n;
                }
                if (n == line.length) {
                    throw new IOException("line too long");
                }
                line[n++] = (byte) b;
            }
        }
    }

    /** The text after {@code marker} up to the next double quote, or null. */
    static String find(byte[] bytes, int length, String marker) {
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + m.length <= length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (bytes[i + j] != m[j]) {
                    continue outer;
                }
            }
            int from = i + m.length;
            for (int end = from; end < length; end++) {
                if (bytes[end] == '"') {
                    return new String(bytes, from, end - from, StandardCharsets.US_ASCII);
                }
            }
            return null;
        }
        return null;
    }

    // ---------------------------------------------------------------- the pipeline: drain and accepted -> published

    /**
     * After a phase's load: waits (at most --drain-timeout) until posts-service has no post left queued or
     * publishing, so the next phase starts on an empty pipeline, and records the CPU of load plus drain.
     */
    void drain(Phase phase) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + drainTimeoutSeconds * 1_000_000_000L;
        String pending = "?";
        while (System.nanoTime() < deadline) {
            pending = postsDb.query("select count(*) from posts where status in ('queued', 'publishing')").get(0)[0];
            if (pending.equals("0")) {
                break;
            }
            Thread.sleep(200);
        }
        CpuSnapshot after = CpuSnapshot.take(state);
        phase.cpuAll = after.minus(phase.cpuBefore);
        phase.threadsAll = after.threadsMinus(phase.cpuBefore);
        Map<String, long[]> db = databaseCounters();
        db.forEach((name, now) -> {
            long[] was = phase.dbBefore.get(name);
            if (was != null) {
                long[] d = new long[now.length];
                for (int i = 0; i < now.length; i++) {
                    d[i] = now[i] - was[i];
                }
                phase.dbWork.put(name, d);
            }
        });
        phase.allTotal = after.systemTotal - phase.cpuBefore.systemTotal;
        phase.allBusy = after.systemBusy - phase.cpuBefore.systemBusy;
        double waited = (System.nanoTime() - t0) / 1e9;
        if (!pending.equals("0")) {
            phase.drainNote = pending + " posts still queued or publishing after " + drainTimeoutSeconds + " s";
            notes.append("- ").append(phase.name).append(": ").append(phase.drainNote)
                    .append("; the next phase started on a pipeline that had not drained.\n");
        }
        log(String.format(Locale.ROOT, "  drained: %s posts pending after %.1f s of waiting", pending, waited));
    }

    /**
     * Per database (pg_stat_database, the services' herald_* databases): transactions (commits + rollbacks), rows
     * returned by scans, rows fetched, inserted, updated and deleted. Statistics reach the view from each backend
     * within about a second, which the drain after a phase leaves them.
     */
    Map<String, long[]> databaseCounters() throws Exception {
        Map<String, long[]> counters = new TreeMap<>();
        // Statistics of other backends reach the view within about a second; a fresh snapshot per call.
        statsDb.query("select pg_stat_clear_snapshot()");
        for (String[] f : statsDb.query("select datname, xact_commit + xact_rollback, tup_returned, tup_fetched, tup_inserted, "
                + "tup_updated, tup_deleted from pg_stat_database where datname like 'herald%'")) {
            if (f.length == 7) {
                long[] v = new long[6];
                for (int i = 0; i < 6; i++) {
                    v[i] = Long.parseLong(f[i + 1]);
                }
                counters.put(f[0], v);
            }
        }
        return counters;
    }

    record Published(long posts, long found, long published, Map<String, Long> statuses, double[] finalMs, double maxFinalMs,
                     double[] dispatchMs, double drainSeconds, long publishedDuringLoad) {
    }

    /** Per phase, from herald_posts: status of every accepted post, and p50..p99.9 of finalized_at - created_at. */
    void publishedLatency(List<Phase> phases) throws Exception {
        Path ids = Files.createTempFile("posts-bench-ids", ".csv");
        try {
            StringBuilder csv = new StringBuilder();
            Map<String, Phase> byKey = new LinkedHashMap<>();
            for (int i = 0; i < phases.size(); i++) {
                Phase p = phases.get(i);
                byKey.put("p" + i, p);
                for (String id : p.postIds) {
                    csv.append('p').append(i).append(',').append(id).append('\n');
                }
            }
            Files.writeString(ids, csv);
            StringBuilder sql = new StringBuilder();
            sql.append("create temp table m (phase text, id text);\n");
            sql.append("\\copy m from '").append(ids.toAbsolutePath()).append("' with (format csv)\n");
            sql.append("create temp table e (phase text, started double precision, ended double precision);\n");
            for (Map.Entry<String, Phase> e : byKey.entrySet()) {
                sql.append("insert into e values ('").append(e.getKey()).append("', ")
                        .append(e.getValue().startedAt.toEpochMilli() / 1000.0).append(", ")
                        .append(e.getValue().endedAt.toEpochMilli() / 1000.0).append(");\n");
            }
            // Every post (of any phase) that became published while the phase's load ran: the pipeline's output.
            sql.append("select 'W', e.phase, (select count(*) from posts where status = 'published' and finalized_at >= to_timestamp(e.started) "
                    + "and finalized_at < to_timestamp(e.ended)) from e;\n");
            sql.append("""
                    select m.phase, count(*), count(p.id), count(*) filter (where p.status = 'published'),
                           coalesce((select string_agg(s.status || '=' || s.n, ' ') from (select p2.status, count(*) n from m m2
                                join posts p2 on p2.id = m2.id where m2.phase = m.phase group by p2.status) s), ''),
                           array_to_string(percentile_disc(array[0.5, 0.9, 0.99, 0.999]) within group
                               (order by extract(epoch from p.finalized_at - p.created_at) * 1000)
                               filter (where p.status = 'published'), ' '),
                           max(extract(epoch from p.finalized_at - p.created_at) * 1000) filter (where p.status = 'published'),
                           array_to_string(percentile_disc(array[0.5, 0.99]) within group
                               (order by extract(epoch from p.dispatched_at - p.created_at) * 1000)
                               filter (where p.dispatched_at is not null), ' '),
                           max(extract(epoch from p.finalized_at)) - max(e.ended)
                    from m left join posts p on p.id = m.id join e on e.phase = m.phase
                    group by m.phase order by m.phase;
                    """);
            String out = psqlScript("herald_posts", sql.toString());
            Map<String, Long> publishedInWindow = new HashMap<>();
            for (String row : out.split("\n")) {
                String[] f = row.split("\\|", -1);
                if (f.length == 3 && f[0].equals("W")) {
                    publishedInWindow.put(f[1], Long.parseLong(f[2].trim()));
                }
            }
            for (String row : out.split("\n")) {
                String[] f = row.split("\\|", -1);
                if (f.length < 9 || !byKey.containsKey(f[0])) {
                    continue;
                }
                Phase p = byKey.get(f[0]);
                Map<String, Long> statuses = new TreeMap<>();
                for (String s : f[4].trim().split(" ")) {
                    int eq = s.indexOf('=');
                    if (eq > 0) {
                        statuses.put(s.substring(0, eq), Long.parseLong(s.substring(eq + 1)));
                    }
                }
                p.published = new Published(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), statuses,
                        doubles(f[5]), f[6].isEmpty() ? Double.NaN : Double.parseDouble(f[6]), doubles(f[7]),
                        f[8].isEmpty() ? Double.NaN : Double.parseDouble(f[8]), publishedInWindow.getOrDefault(f[0], 0L));
                log(String.format(Locale.ROOT, "  %s: %d accepted, %d published, accepted -> published p50 %s ms, p99 %s ms, drained %.2f s after the load",
                        p.name, p.published.posts(), p.published.published(), fmtMs(at(p.published.finalMs(), 0)),
                        fmtMs(at(p.published.finalMs(), 2)), p.published.drainSeconds()));
            }
        } finally {
            Files.deleteIfExists(ids);
        }
    }

    static double[] doubles(String s) {
        if (s == null || s.isBlank()) {
            return new double[0];
        }
        return Arrays.stream(s.trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
    }

    static double at(double[] a, int i) {
        return a == null || a.length <= i ? Double.NaN : a[i];
    }

    // ---------------------------------------------------------------- the direct-SQL reference

    record Reference(double tps, long transactions, long failed, double seconds, String latency, Map<String, Long> cpu,
                     long total, long busy, String output, String schema) {
    }

    /**
     * A scratch database on the suite's PostgreSQL with the three services' schemas, built by running the measured
     * commit's own migrations (api-gateway, posts-service, usage-service) each into a schema of its own; then
     * pgbench runs bench/posts-direct.sql (one transaction = the acceptance path's SQL of one post) with
     * --pgbench-clients and --pgbench-threads for --duration seconds, after a short warm-up.
     */
    Reference directSql() throws Exception {
        String db = "bench_direct";
        log("direct-SQL reference: scratch database " + db + " from the migrations of api-gateway, posts-service, usage-service");
        psqlScript("postgres", "drop database if exists " + db + ";\ncreate database " + db + ";\n");
        StringBuilder schema = new StringBuilder();
        Map<String, String> services = new LinkedHashMap<>();
        services.put("gw", "api-gateway");
        services.put("posts", "posts-service");
        services.put("usage", "usage-service");
        for (Map.Entry<String, String> s : services.entrySet()) {
            Path dir = src.resolve(s.getValue()).resolve("src/main/resources/db/migration");
            List<Path> files;
            try (var stream = Files.list(dir)) {
                files = stream.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql"))
                        .sorted((a, b) -> Integer.compare(version(a), version(b))).toList();
            }
            StringBuilder sql = new StringBuilder("create schema " + s.getKey() + ";\nset search_path = " + s.getKey() + ";\n");
            for (Path f : files) {
                sql.append("\\i '").append(f.toAbsolutePath()).append("'\n");
            }
            psqlScript(db, sql.toString());
            schema.append(s.getKey()).append(": ").append(s.getValue()).append(" ")
                    .append(files.stream().map(f -> f.getFileName().toString().replaceAll("__.*", "")).collect(Collectors.joining(", ")))
                    .append("; ");
        }
        // The workspaces' plans, as usage-service holds them after PUT /plan (scale, comp, test mode).
        psqlScript(db, "insert into usage.subscriptions (workspace_id, mode, plan, plan_source, started_at, created_at, updated_at) "
                + "select 'ws_bench_' || i, 'test', 'scale', 'comp', now(), now(), now() from generate_series(1, " + workspaceCount + ") i;\n");
        Path script = benchDir.resolve("posts-direct.sql").toAbsolutePath();
        if (pgbenchWarmup > 0) {
            log("  pgbench warm-up " + pgbenchWarmup + " s");
            runPgbench(db, script, pgbenchWarmup);
            // pgbench's backends exit just after it does; their CPU reaches the postmaster's (cutime) once it has reaped
            // them, which must happen before the measurement starts, not during it.
            Thread.sleep(1000);
        }
        log("  pgbench " + durationSeconds + " s, " + pgbenchClients + " clients, " + pgbenchThreads + " threads");
        CpuSnapshot before = CpuSnapshot.take(state);
        String output = runPgbench(db, script, durationSeconds);
        CpuSnapshot after = CpuSnapshot.take(state);
        Thread.sleep(1000);
        CpuSnapshot reaped = CpuSnapshot.take(state);
        Matcher tps = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)").matcher(output);
        Matcher done = Pattern.compile("number of transactions actually processed: (\\d+)").matcher(output);
        Matcher failed = Pattern.compile("number of failed transactions: (\\d+)").matcher(output);
        Matcher latency = Pattern.compile("latency average = ([0-9.]+ ms)").matcher(output);
        if (!tps.find() || !done.find()) {
            throw new IllegalStateException("pgbench printed no tps:\n" + output);
        }
        Reference r = new Reference(Double.parseDouble(tps.group(1)), Long.parseLong(done.group(1)),
                failed.find() ? Long.parseLong(failed.group(1)) : 0, durationSeconds, latency.find() ? latency.group(1) : "-",
                reaped.minus(before), after.systemTotal - before.systemTotal, after.systemBusy - before.systemBusy, output.trim(),
                schema.toString().trim());
        log(String.format(Locale.ROOT, "  direct SQL: %.0f posts/s (%d transactions, %d failed)", r.tps(), r.transactions(), r.failed()));
        psqlScript("postgres", "drop database if exists " + db + ";\n");
        return r;
    }

    static int version(Path f) {
        Matcher m = Pattern.compile("^V(\\d+)__").matcher(f.getFileName().toString());
        return m.find() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
    }

    String runPgbench(String db, Path script, int seconds) throws Exception {
        List<String> cmd = List.of(pgbench, "-h", "127.0.0.1", "-p", String.valueOf(postgresPort), "-U", "postgres", "-n",
                "-M", "prepared", "-c", String.valueOf(pgbenchClients), "-j", String.valueOf(pgbenchThreads), "-T", String.valueOf(seconds),
                "-D", "workspaces=" + workspaceCount, "-f", script.toString(), db);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PGCONNECT_TIMEOUT", "10");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("pgbench failed (" + String.join(" ", cmd) + "):\n" + output);
        }
        return output;
    }

    String psqlQuery(String db, String sql) throws Exception {
        return psqlScript(db, sql + ";\n");
    }

    /** Runs SQL through psql (unaligned, tuples only, '|' between fields); answers its output. */
    String psqlScript(String db, String sql) throws Exception {
        List<String> cmd = List.of(psql, "-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                "-p", String.valueOf(postgresPort), "-U", "postgres", "-d", db);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PGCONNECT_TIMEOUT", "10");
        Process p = pb.start();
        try (OutputStream stdin = p.getOutputStream()) {
            stdin.write(sql.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("psql on " + db + " failed: " + output + "\nSQL:\n" + abbreviate(sql, 2000));
        }
        return output;
    }

    // ---------------------------------------------------------------- report

    String report(List<Phase> phases, Phase best, Phase sustained, Phase open, Reference ref) {
        StringBuilder out = new StringBuilder();
        out.append("# Posts pipeline: accepted posts/s through the gateway, accepted -> published, direct-SQL reference\n\n");

        double p99 = pct(best.sorted(), 0.99);
        double pubP99 = best.published == null ? Double.NaN : at(best.published.finalMs(), 2);
        double ratio = ref.tps() == 0 ? 0 : best.throughput() / ref.tps();
        out.append("| result | measured | target | verdict |\n|---|---:|---:|---|\n");
        out.append("| accepted posts/s through the gateway (best closed loop: ").append(best.connections).append(" connections) | ")
                .append(fmt0(best.throughput())).append(" | >= 1,000 | ").append(verdict(best.throughput() >= 1000)).append(" |\n");
        if (sustained != null) {
            double published = sustained.published == null ? Double.NaN : sustained.published.publishedDuringLoad() * 1e9 / sustained.nanos;
            out.append("| end to end: accepted / published posts/s with the backlog held under ").append(backlogCap)
                    .append(" (sustained phase) | ").append(fmt0(sustained.throughput())).append(" / ").append(fmt0(published))
                    .append(" | >= 1,000 | ").append(verdict(sustained.throughput() >= 1000 && published >= 1000)).append(" |\n");
        }
        out.append("| p99 acceptance latency (202), best closed loop | ").append(ms(p99)).append(" ms | < 50 ms | ")
                .append(verdict(p99 < 50_000_000)).append(" |\n");
        if (open != null) {
            double openP99 = pct(open.sorted(), 0.99);
            out.append("| p99 acceptance latency, open loop at ").append(fmt0(open.offeredRate)).append(" posts/s offered | ")
                    .append(ms(openP99)).append(" ms | < 50 ms | ").append(atRate(open, openP99 < 50_000_000)).append(" |\n");
        }
        out.append("| accepted -> published p99, best closed loop | ").append(fmtMs(pubP99)).append(" ms | < 1,000 ms | ")
                .append(Double.isNaN(pubP99) ? "not measurable" : verdict(pubP99 < 1000)).append(" |\n");
        if (open != null && open.published != null) {
            double openPub = at(open.published.finalMs(), 2);
            out.append("| accepted -> published p99, open loop at ").append(fmt0(open.offeredRate)).append(" posts/s offered | ")
                    .append(fmtMs(openPub)).append(" ms | < 1,000 ms | ")
                    .append(Double.isNaN(openPub) ? "not measurable" : atRate(open, openPub < 1000)).append(" |\n");
        }
        out.append("| accepted posts/s / direct-SQL posts/s | ").append(fmt0(best.throughput())).append(" / ").append(fmt0(ref.tps()))
                .append(" = ").append(String.format(Locale.ROOT, "%.1f%%", 100 * ratio)).append(" | >= 40% | ")
                .append(verdict(ratio >= 0.40)).append(" |\n\n");

        out.append("| setting | |\n|---|---|\n");
        row(out, "date (UTC)", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        row(out, "code measured", opt("source", "?"));
        row(out, "machine", opt("machine", "?"));
        row(out, "machine load", idleReport + "; during the measured phases other processes used "
                + phases.stream().map(p -> share(p.cpuLoad.getOrDefault("other", 0L), p.loadTotal)).collect(Collectors.joining(", "))
                + " of the machine");
        row(out, "PostgreSQL", postgresSettings + " (the suite's embedded server, shared by every service and the reference)");
        row(out, "java (client)", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        row(out, "request", "`POST /api/v1/posts` `{\"text\": <about 90 characters>, \"account_ids\": [<the workspace's LinkedIn "
                + "sandbox account>]}` with a unique `Idempotency-Key` and the workspace's `sk_test_` key: one target, "
                + "test mode, publishes at once (username `bench`)");
        row(out, "workspaces and limits", sizing + ". Each workspace: `POST /admin/v1/workspaces`, a test key, `PUT .../plan` "
                + "`{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}` (answers: " + planAnswers
                + "), one sandbox account (`POST /api/v1/accounts`, which counts as a request). Limits on, as in production: "
                + "the gateway announced `X-RateLimit-Limit: " + rateLimitSeen + "`");
        row(out, "sanity check", "one post before the load: " + sanity);
        int maxConnections = connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(8);
        row(out, "load", "warm-up: closed loop, " + maxConnections + " connections, waiting while more than " + backlogCap
                + " posts are queued or publishing (so delivery warms up too), " + warmupOutcome + ". Then " + durationSeconds
                + " s per phase, in this order: "
                + (sustained == null ? "" : "the sustained phase, straight after the warm-up (the same gated closed loop: it accepts "
                + "as fast as the pipeline publishes); ")
                + "closed loop (keep-alive HTTP/1.1, each connection sends its next post when the previous answer is read, "
                + "pacer at most " + fmt0(rate) + " posts/s) at " + connectionCounts.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " connections" + (open == null ? "" : "; open loop (" + openConnections + " connections, a post due every 1/rate s, latency "
                + "from its due time; " + (openRateOption.equals("auto") ? "rate: 80% of the lower of the sustained phase's accepted and published rates" : "rate given") + ")")
                + ". The pipeline drains (no post queued or publishing) after each phase");
        out.append('\n');

        out.append("## Acceptance: `POST /posts` through the gateway\n\n");
        out.append("Latency of 202s only, from writing the request (open loop: from its due time) to reading the whole answer. ")
                .append("`other answers` counts every non-202 by status and error code.\n\n");
        out.append("| phase | accepted (202) | posts/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | other answers | posts/s per 5 s |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Phase p : phases) {
            long[] s = p.sorted();
            String label = (p == best ? "**" + p.name + "**" : p.name)
                    + (p.gated ? " (sending paused " + fmt0(p.gateClosedNanos / 1e9) + " s of " + fmt0(p.nanos / 1e9) + ")" : "");
            out.append("| ").append(label).append(" | ").append(p.accepted()).append(" | ")
                    .append(fmt0(p.throughput())).append(" | ").append(ms(pct(s, 0.5))).append(" | ").append(ms(pct(s, 0.9)))
                    .append(" | ").append(ms(pct(s, 0.99))).append(" | ").append(ms(pct(s, 0.999))).append(" | ")
                    .append(ms(s.length == 0 ? -1 : s[s.length - 1])).append(" | ")
                    .append(p.others.isEmpty() && p.dropped == 0 ? "none" : p.others.entrySet().stream()
                            .map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", "))
                            + (p.dropped > 0 ? (p.others.isEmpty() ? "" : ", ") + p.dropped + " dropped (over 1 s behind schedule)" : ""))
                    .append(" | ").append(perFive(p)).append(" |\n");
        }
        if (open != null) {
            long[] service = open.serviceTimes.toArray();
            Arrays.sort(service);
            out.append("\nOpen loop, service time only (from the actual send): p50 ").append(ms(pct(service, 0.5))).append(" ms, p99 ")
                    .append(ms(pct(service, 0.99))).append(" ms.\n");
        }
        long limited = phases.stream().mapToLong(Phase::rateLimited).sum();
        out.append('\n').append(limited == 0
                ? "No `429 rate_limit_exceeded`: the workspaces were enough for the per-minute limit.\n\n"
                : "**" + limited + " answers were `429 rate_limit_exceeded`: the workspace count was too small for this rate** "
                        + "(raise --workspaces or lower --rate).\n\n");

        out.append("## Accepted -> published\n\n");
        out.append("From posts-service's database (`herald_posts.posts`) for the posts each phase accepted: `created_at` is the ")
                .append("acceptance, `finalized_at` when the post became final, `dispatched_at` when it was handed to delivery. ")
                .append("Published during the load: posts that became published while the phase's load ran, per second (the ")
                .append("pipeline's output; below the accepted rate when delivery falls behind; the sustained phase follows the ")
                .append("warm-up without a drain, so its output is the steady state's). Drain: last `finalized_at` of the phase's posts minus the end of its load.\n\n");
        out.append("| phase | accepted | published | other statuses | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | accepted -> dispatched p50 / p99 ms | published during the load, posts/s | drain after the load |\n");
        out.append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Phase p : phases) {
            Published r = p.published;
            if (r == null) {
                out.append("| ").append(p.name).append(" | ").append(p.accepted()).append(" | - | not read | | | | | | | |\n");
                continue;
            }
            Map<String, Long> rest = new TreeMap<>(r.statuses());
            rest.remove("published");
            if (r.found() < r.posts()) {
                rest.put("not found", r.posts() - r.found());
            }
            out.append("| ").append(p.name).append(" | ").append(r.posts()).append(" | ").append(r.published())
                    .append(String.format(Locale.ROOT, " (%.2f%%)", r.posts() == 0 ? 0 : 100.0 * r.published() / r.posts())).append(" | ")
                    .append(rest.isEmpty() ? "none" : rest.toString()).append(" | ")
                    .append(fmtMs(at(r.finalMs(), 0))).append(" | ").append(fmtMs(at(r.finalMs(), 1))).append(" | ")
                    .append(fmtMs(at(r.finalMs(), 2))).append(" | ").append(fmtMs(at(r.finalMs(), 3))).append(" | ")
                    .append(fmtMs(r.maxFinalMs())).append(" | ").append(fmtMs(at(r.dispatchMs(), 0))).append(" / ")
                    .append(fmtMs(at(r.dispatchMs(), 1))).append(" | ")
                    .append(fmt0(r.publishedDuringLoad() * 1e9 / p.nanos)).append(" | ")
                    .append(Double.isNaN(r.drainSeconds()) ? "-" : String.format(Locale.ROOT, "%.2f s", r.drainSeconds()))
                    .append(p.drainNote.isEmpty() ? "" : " (" + p.drainNote + ")").append(" |\n");
        }
        out.append('\n');

        out.append("## Direct-SQL reference (pgbench)\n\n");
        out.append("The SQL an accepted post runs on the acceptance path, issued directly with pgbench (`bench/posts-direct.sql`, ")
                .append("`-M prepared -c ").append(pgbenchClients).append(" -j ").append(pgbenchThreads).append(" -T ")
                .append(durationSeconds).append("`, after a ").append(pgbenchWarmup).append(" s warm-up) against a scratch ")
                .append("database on the same PostgreSQL, with the suite idle. One pgbench transaction = one post: the gateway's ")
                .append("admission statement (per-minute window + monthly meter), posts-service's idempotency claim, usage-service's ")
                .append("reservation transaction (reads, meter row lock and update, reservation insert, outbox insert), ")
                .append("posts-service's acceptance transaction (post, target, idempotency completion) and the gateway's request log row. ")
                .append("Schema: the measured commit's own migrations, one schema per service (").append(ref.schema()).append(").\n\n");
        out.append("| | value |\n|---|---:|\n");
        out.append("| direct-SQL posts/s (pgbench tps) | **").append(fmt0(ref.tps())).append("** |\n");
        out.append("| transactions / failed | ").append(ref.transactions()).append(" / ").append(ref.failed()).append(" |\n");
        out.append("| latency average | ").append(ref.latency()).append(" |\n");
        out.append("| CPU per post: PostgreSQL / pgbench / machine busy | ")
                .append(perPost(ref.cpu().getOrDefault("postgres", 0L), ref.transactions())).append(" µs / ")
                .append(perPost(ref.cpu().getOrDefault(CpuSnapshot.CHILDREN, 0L), ref.transactions())).append(" µs / ")
                .append(share(ref.busy(), ref.total())).append(" |\n");
        out.append("| accepted / direct (best closed loop) | ").append(String.format(Locale.ROOT, "%.1f%%", 100 * ratio)).append(" |\n\n");

        out.append("## CPU per accepted post\n\n");
        out.append("CPU time (utime+stime from /proc) of each process tree, per post accepted in the phase, during the load and ")
                .append("over load plus drain (all the work the phase's posts caused, delivery included). PostgreSQL counts every ")
                .append("backend; `bench client` is the load generator; `pgbench/psql` the bench's child processes (drain polling); ")
                .append("`other` is everything else on the machine. Two cores give 2,000,000 µs per second.\n\n");
        TreeSet<String> components = new TreeSet<>();
        for (Phase p : phases) {
            components.addAll(p.cpuAll.keySet());
            components.addAll(p.cpuLoad.keySet());
        }
        out.append("| process |");
        StringBuilder sep = new StringBuilder("|---|");
        for (Phase p : phases) {
            out.append(' ').append(p.name).append(": load | load + drain |");
            sep.append("---:|---:|");
        }
        out.append('\n').append(sep).append('\n');
        for (String c : components) {
            out.append("| ").append(c).append(" |");
            for (Phase p : phases) {
                out.append(' ').append(perPost(p.cpuLoad.getOrDefault(c, 0L), p.accepted())).append(" | ")
                        .append(perPost(p.cpuAll.getOrDefault(c, 0L), p.accepted())).append(" |");
            }
            out.append('\n');
        }
        out.append("| **all but other** |");
        for (Phase p : phases) {
            out.append(' ').append(perPost(sumButOther(p.cpuLoad), p.accepted())).append(" | ")
                    .append(perPost(sumButOther(p.cpuAll), p.accepted())).append(" |");
        }
        out.append("\n| machine busy |");
        for (Phase p : phases) {
            out.append(' ').append(share(p.loadBusy, p.loadTotal)).append(" | ").append(share(p.allBusy, p.allTotal)).append(" |");
        }
        for (String kind : List.of(CpuSnapshot.JIT, CpuSnapshot.GC)) {
            out.append("\n| of the suite's JVMs: ").append(kind).append(" |");
            for (Phase p : phases) {
                out.append(' ').append(perPost(p.threadsLoad.getOrDefault(kind, 0L), p.accepted())).append(" | ")
                        .append(perPost(p.threadsAll.getOrDefault(kind, 0L), p.accepted())).append(" |");
            }
        }
        out.append("\n\n");
        out.append("The last two rows are part of the service rows above (threads named `C1/C2 CompilerThread`, and `VM Thread` ")
                .append("with `-XX:+UseSerialGC`): JIT compilation still running during a phase means the JVMs were not fully warm.\n\n");

        out.append("## Database work per accepted post\n\n");
        out.append("From `pg_stat_database`, over each phase's load plus drain, divided by the posts it accepted: what every ")
                .append("service's database did for one post, all of the pipeline included (acceptance, dispatch, delivery, ")
                .append("settlement, finalization, outbox relays, polling).\n\n");
        out.append("| database |");
        StringBuilder dbSep = new StringBuilder("|---|");
        for (Phase p : phases) {
            out.append(' ').append(p.name).append(": transactions | rows written | rows read |");
            dbSep.append("---:|---:|---:|");
        }
        out.append('\n').append(dbSep).append('\n');
        TreeSet<String> dbs = new TreeSet<>();
        phases.forEach(p -> dbs.addAll(p.dbWork.keySet()));
        double[][] totals = new double[phases.size()][3];
        for (String db : dbs) {
            out.append("| ").append(db).append(" |");
            for (int i = 0; i < phases.size(); i++) {
                Phase p = phases.get(i);
                long[] d = p.dbWork.getOrDefault(db, new long[6]);
                double n = Math.max(1, p.accepted());
                double[] v = {d[0] / n, (d[3] + d[4] + d[5]) / n, d[2] / n};
                for (int j = 0; j < 3; j++) {
                    totals[i][j] += v[j];
                }
                out.append(String.format(Locale.ROOT, " %.1f | %.1f | %.1f |", v[0], v[1], v[2]));
            }
            out.append('\n');
        }
        out.append("| **all** |");
        for (double[] t : totals) {
            out.append(String.format(Locale.ROOT, " %.1f | %.1f | %.1f |", t[0], t[1], t[2]));
        }
        out.append("\n\nRows read: `tup_fetched` (rows fetched by index scans and returned to queries).\n\n");

        out.append("<details><summary>pgbench output</summary>\n\n```\n").append(ref.output()).append("\n```\n\n</details>\n\n");

        for (Phase p : phases) {
            if (p.loadTotal > 0 && 100.0 * p.cpuLoad.getOrDefault("other", 0L) / p.loadTotal >= 10) {
                notes.append("- Other processes used ").append(share(p.cpuLoad.getOrDefault("other", 0L), p.loadTotal))
                        .append(" of the machine during ").append(p.name).append(": its numbers are distorted by unrelated work.\n");
            }
            if (p.published != null && p.published.published() < p.published.posts()) {
                notes.append("- ").append(p.name).append(": ").append(p.published.posts() - p.published.published())
                        .append(" accepted posts did not end published.\n");
            }
        }
        if (best.throughput() >= 0.97 * rate) {
            notes.append("- The best closed loop ran at the pacer's cap (").append(fmt0(rate)).append(" posts/s): the system may do more; ")
                    .append("raise --rate (more workspaces are then created).\n");
        }
        if (notes.length() > 0) {
            out.append("## Notes\n\n").append(notes).append('\n');
        }
        return out.toString();
    }

    static String perFive(Phase p) {
        List<String> parts = new ArrayList<>();
        int seconds = (int) Math.round(p.nanos / 1e9);
        for (int i = 0; i + 5 <= seconds; i += 5) {
            long sum = 0;
            for (int j = i; j < i + 5 && j < p.perSecond.length; j++) {
                sum += p.perSecond[j];
            }
            parts.add(String.valueOf(Math.round(sum / 5.0)));
        }
        return String.join(", ", parts);
    }

    static long sumButOther(Map<String, Long> cpu) {
        return cpu.entrySet().stream().filter(e -> !e.getKey().equals("other")).mapToLong(Map.Entry::getValue).sum();
    }

    String perPost(long ticks, long posts) {
        return posts == 0 ? "-" : String.format(Locale.ROOT, "%.0f", ticks * 1_000_000.0 / clockTicks / posts);
    }

    static String verdict(boolean met) {
        return met ? "met" : "**not met**";
    }

    /** A latency verdict measured at a rate below the target's 1,000 posts/s says so. */
    static String atRate(Phase p, boolean met) {
        if (p.offeredRate >= 1000) {
            return verdict(met);
        }
        return met ? "met at " + fmt0(p.offeredRate) + " posts/s only (the target is at 1,000)" : "**not met**, even at " + fmt0(p.offeredRate) + " posts/s";
    }

    static void row(StringBuilder out, String k, String v) {
        out.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n");
    }

    static String share(long part, long total) {
        return total <= 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * part / total);
    }

    static long pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static String ms(double nanos) {
        return Double.isNaN(nanos) || nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1_000_000.0);
    }

    static String fmtMs(double millis) {
        return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.0f", millis);
    }

    static String fmt0(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    // ---------------------------------------------------------------- quiet machine

    /** Waits (at most --wait-idle s) until processes outside the suite and this client use under 10% of the machine. */
    String waitForQuietMachine() throws InterruptedException {
        long deadline = System.nanoTime() + waitIdleSeconds * 1_000_000_000L;
        long waitedFrom = System.nanoTime();
        while (true) {
            CpuSnapshot a = CpuSnapshot.take(state);
            Thread.sleep(2000);
            CpuSnapshot b = CpuSnapshot.take(state);
            Map<String, Long> delta = b.minus(a);
            long total = Math.max(1, b.systemTotal - a.systemTotal);
            long other = delta.getOrDefault("other", 0L);
            long suite = delta.entrySet().stream().filter(e -> !e.getKey().equals("other") && !e.getKey().startsWith("bench")
                    && !e.getKey().equals(CpuSnapshot.CHILDREN)).mapToLong(Map.Entry::getValue).sum();
            double otherShare = 100.0 * other / total;
            String text = String.format(Locale.ROOT, "before the warm-up, other processes used %.0f%% and the idle suite %.0f%% of the machine",
                    otherShare, 100.0 * suite / total);
            if (otherShare < 10) {
                long waited = (System.nanoTime() - waitedFrom) / 1_000_000_000L;
                return text + (waited > 2 ? " (after waiting " + waited + " s for a quiet machine)" : "");
            }
            if (System.nanoTime() > deadline) {
                notes.append("- **The machine was busy with other work** (").append(text).append(", still after waiting ")
                        .append(waitIdleSeconds).append(" s): absolute numbers are pessimistic and noisy. See the `other` row of the CPU table.\n");
                return text + " (gave up waiting after " + waitIdleSeconds + " s)";
            }
            log("waiting for a quiet machine: " + text);
        }
    }

    // ---------------------------------------------------------------- CPU accounting from /proc

    static final class CpuSnapshot {
        static final String CHILDREN = "pgbench/psql (bench)";
        static final String JIT = "JIT compiler threads";
        static final String GC = "GC and VM threads";
        final Map<String, Long> ticks = new TreeMap<>();
        /** Of the suite's JVMs (services and Kafka): ticks of their JIT compiler threads, and of GC and VM threads. */
        final Map<String, Long> jvmThreads = new TreeMap<>();
        long systemBusy;
        long systemTotal;

        /**
         * Ticks per component: each process is charged to the nearest ancestor named in the suite's pids/ files
         * (or this JVM), with the children it has waited for (cutime/cstime); the bench's own child processes
         * (pgbench, psql) are counted from this JVM's cutime/cstime, which holds them once they have exited.
         */
        static CpuSnapshot take(Path state) {
            CpuSnapshot snap = new CpuSnapshot();
            try {
                Map<Long, String> roots = new HashMap<>();
                Path pids = state.resolve("pids");
                if (Files.isDirectory(pids)) {
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(pids, "*.pid")) {
                        for (Path f : files) {
                            String name = f.getFileName().toString().replace(".pid", "");
                            roots.put(Long.parseLong(Files.readString(f).trim()), name);
                        }
                    }
                }
                long self = ProcessHandle.current().pid();
                roots.put(self, "bench client (this JVM)");
                Map<Long, long[]> procs = new HashMap<>(); // pid -> {ppid, ticks}
                try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
                    for (Path dir : dirs) {
                        try {
                            String stat = Files.readString(dir.resolve("stat"));
                            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            // f[1] = ppid (field 4), f[11] = utime (14), f[12] = stime (15), f[13] cutime (16), f[14] cstime (17)
                            long pid = Long.parseLong(dir.getFileName().toString());
                            long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                            long reapedChildren = Long.parseLong(f[13]) + Long.parseLong(f[14]);
                            if (pid == self) {
                                snap.ticks.merge(CHILDREN, reapedChildren, Long::sum);
                            } else {
                                // Exited children's time moves to the parent that waited for them: PostgreSQL's
                                // backends of short connections (pgbench's, psql's) end up in the postmaster's.
                                own += reapedChildren;
                            }
                            procs.put(pid, new long[] {Long.parseLong(f[1]), own});
                        } catch (IOException | RuntimeException gone) {
                            // exited meanwhile
                        }
                    }
                }
                for (Map.Entry<Long, long[]> p : procs.entrySet()) {
                    String component = "other";
                    long pid = p.getKey();
                    for (int depth = 0; depth < 64 && pid > 1; depth++) {
                        String c = roots.get(pid);
                        if (c != null) {
                            component = c;
                            break;
                        }
                        long[] info = procs.get(pid);
                        if (info == null) {
                            break;
                        }
                        pid = info[0];
                    }
                    // A running pgbench or psql is this JVM's child: count it with the children, not the client.
                    if (component.startsWith("bench client") && p.getKey() != self) {
                        component = CHILDREN;
                    }
                    snap.ticks.merge(component, p.getValue()[1], Long::sum);
                    if (!component.equals("other") && !component.equals("postgres") && !component.equals(CHILDREN)
                            && !component.startsWith("bench")) {
                        snap.threadTicks(p.getKey());
                    }
                }
                String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
                long total = 0;
                for (int i = 1; i < Math.min(cpu.length, 9); i++) {
                    total += Long.parseLong(cpu[i]);
                }
                snap.systemTotal = total;
                snap.systemBusy = total - idle;
            } catch (IOException | RuntimeException e) {
                // no /proc: CPU columns stay empty
            }
            return snap;
        }

        /** Adds the process's JIT compiler and GC/VM thread ticks (by thread name, /proc/<pid>/task/<tid>/comm). */
        void threadTicks(long pid) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
                for (Path task : tasks) {
                    try {
                        String comm = Files.readString(task.resolve("comm")).trim();
                        String kind = comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre") ? JIT
                                : comm.startsWith("VM Thread") || comm.startsWith("GC Thread") || comm.startsWith("G1 ") ? GC : null;
                        if (kind == null) {
                            continue;
                        }
                        String stat = Files.readString(task.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        jvmThreads.merge(kind, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                    } catch (IOException | RuntimeException gone) {
                        // thread ended meanwhile
                    }
                }
            } catch (IOException | RuntimeException gone) {
                // process ended meanwhile
            }
        }

        Map<String, Long> minus(CpuSnapshot before) {
            Map<String, Long> delta = new TreeMap<>();
            ticks.forEach((k, v) -> delta.put(k, Math.max(0, v - before.ticks.getOrDefault(k, 0L))));
            return delta;
        }

        Map<String, Long> threadsMinus(CpuSnapshot before) {
            Map<String, Long> delta = new TreeMap<>();
            jvmThreads.forEach((k, v) -> delta.put(k, Math.max(0, v - before.jvmThreads.getOrDefault(k, 0L))));
            return delta;
        }
    }

    // ---------------------------------------------------------------- small helpers

    /**
     * A minimal PostgreSQL client (protocol 3, simple queries, trust authentication as the embedded server has) for
     * the polls during the run: a psql process per poll costs tens of milliseconds of CPU on this machine.
     */
    static final class Pg implements AutoCloseable {
        final Socket socket;
        final java.io.DataInputStream in;
        final java.io.DataOutputStream out;

        private Pg(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new java.io.DataInputStream(new BufferedInputStream(socket.getInputStream()));
            this.out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(socket.getOutputStream()));
        }

        static Pg connect(String host, int port, String user, String database) throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.setSoTimeout(60_000);
            s.connect(new InetSocketAddress(host, port), 5_000);
            Pg pg = new Pg(s);
            ByteArrayOutputStreamX body = new ByteArrayOutputStreamX();
            body.writeInt(196608);
            for (String kv : new String[] {"user", user, "database", database, "application_name", "posts-bench"}) {
                body.writeCString(kv);
            }
            body.write(0);
            pg.out.writeInt(body.size() + 4);
            body.writeTo(pg.out);
            pg.out.flush();
            while (true) {
                int type = pg.in.readUnsignedByte();
                byte[] payload = pg.readPayload();
                if (type == 'R' && java.nio.ByteBuffer.wrap(payload).getInt() != 0) {
                    throw new IOException("PostgreSQL asks for a password (authentication request "
                            + java.nio.ByteBuffer.wrap(payload).getInt() + "); the bench expects trust authentication");
                }
                if (type == 'E') {
                    throw new IOException("PostgreSQL refused the connection: " + errorText(payload));
                }
                if (type == 'Z') {
                    return pg;
                }
            }
        }

        /** Runs one statement; the rows as text (null for SQL NULL). */
        synchronized List<String[]> query(String sql) throws IOException {
            byte[] text = sql.getBytes(StandardCharsets.UTF_8);
            out.writeByte('Q');
            out.writeInt(text.length + 5);
            out.write(text);
            out.writeByte(0);
            out.flush();
            List<String[]> rows = new ArrayList<>();
            String error = null;
            while (true) {
                int type = in.readUnsignedByte();
                byte[] payload = readPayload();
                switch (type) {
                    case 'D' -> {
                        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(payload);
                        String[] row = new String[b.getShort()];
                        for (int i = 0; i < row.length; i++) {
                            int len = b.getInt();
                            if (len >= 0) {
                                row[i] = new String(payload, b.position(), len, StandardCharsets.UTF_8);
                                b.position(b.position() + len);
                            }
                        }
                        rows.add(row);
                    }
                    case 'E' -> error = errorText(payload);
                    case 'Z' -> {
                        if (error != null) {
                            throw new IOException("PostgreSQL: " + error + " (" + sql + ")");
                        }
                        return rows;
                    }
                    default -> { }
                }
            }
        }

        byte[] readPayload() throws IOException {
            int length = in.readInt();
            byte[] payload = new byte[length - 4];
            in.readFully(payload);
            return payload;
        }

        static String errorText(byte[] payload) {
            StringBuilder text = new StringBuilder();
            int i = 0;
            while (i < payload.length && payload[i] != 0) {
                char field = (char) payload[i++];
                int end = i;
                while (end < payload.length && payload[end] != 0) {
                    end++;
                }
                if (field == 'M' || field == 'C') {
                    text.append(field == 'C' ? " [" : "").append(new String(payload, i, end - i, StandardCharsets.UTF_8))
                            .append(field == 'C' ? "]" : "");
                }
                i = end + 1;
            }
            return text.toString().trim();
        }

        @Override
        public void close() {
            try {
                out.writeByte('X');
                out.writeInt(4);
                out.flush();
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    static final class ByteArrayOutputStreamX extends java.io.ByteArrayOutputStream {
        void writeInt(int v) {
            write(v >>> 24);
            write(v >>> 16);
            write(v >>> 8);
            write(v);
        }

        void writeCString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            write(b, 0, b.length);
            write(0);
        }
    }

    static final class LongList {
        long[] values = new long[4096];
        int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        void addAll(LongList other) {
            for (int i = 0; i < other.size; i++) {
                add(other.values[i]);
            }
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }

    record Answer(int status, String body, HttpResponse<String> response) {
        String header(String name) {
            return response.headers().firstValue(name).orElse("-");
        }
    }

    Answer send(String method, String url, String bearer, String json, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + bearer).header("Accept", "application/json");
        headers.forEach(b::header);
        if (json != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r);
    }

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

    static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    static void log(String message) {
        System.out.println("[bench " + java.time.LocalTime.now().withNano(0) + "] " + message);
        System.out.flush();
    }
}
