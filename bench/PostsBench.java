import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * Posts pipeline benchmark: the load client, the accepted-to-published measurement and the direct-SQL reference,
 * JDK only, run by bench/posts-throughput.sh against a suite it started (compiled with bench/posts and
 * bench/support, then {@code java -cp DIR PostsBench --name=value ...}). This class is the program (setup, sizing,
 * warm-up, the phases in order); its layers are in bench/posts (see {@link PostsRunState}). See bench/README.md,
 * section "Posts pipeline".
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
public class PostsBench extends PostsReport {
    static {
        // The posts report charges pgbench's and psql's CPU to them and shows the JIT and GC threads' share.
        CpuSnapshot.chargeReapedChildren = true;
        CpuSnapshot.countJvmThreads = true;
    }
    public static void main(String[] args) throws Exception {
        parseOptions(args);
        if (OPTIONS.containsKey("self-test")) {
            TimeToSteady.selfTest();
            return;
        }
        PostsBench bench = new PostsBench();
        try {
            bench.run();
        } finally {
            bench.setupPool.shutdownNow();
        }
    }

    void run() throws Exception {
        Properties credentials = load(state.resolve("credentials"));
        String adminToken = credentials.getProperty("HERALD_ADMIN_TOKEN");
        String gateway = "http://127.0.0.1:" + gatewayPort;
        size();
        log("sizing: " + sizing);
        postsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "herald_posts", "posts-bench", 60_000);
        statsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "postgres", "posts-bench", 60_000);
        postgresSettings = psqlQuery("herald_posts", "select current_setting('server_version') || ', synchronous_commit ' "
                + "|| current_setting('synchronous_commit') || ', fsync ' || current_setting('fsync') || ', shared_buffers ' "
                + "|| current_setting('shared_buffers') || ', max_connections ' || current_setting('max_connections')").trim();
        log("PostgreSQL " + postgresSettings);

        // ---- setup: W workspaces, each with a test key, the scale plan (comp) and one LinkedIn sandbox account
        setup(gateway, adminToken);

        // ---- one post by hand: must be 202 with a pst_ id
        probe(gateway);

        idleReport = CpuSnapshot.waitForQuietMachine(state, waitIdleSeconds, notes, "absolute numbers are pessimistic and noisy.");
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
        timeToSteady = timeToSteady(sustained == null ? Double.NaN : sustained.throughput());
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

    /** From the suite's ready moment (its state directory's {@code ready} file) to a steady accepted rate; null if unknown. */
    TimeToSteady timeToSteady(double sustainedRate) {
        try {
            Instant ready = Files.getLastModifiedTime(state.resolve("ready")).toInstant();
            TimeToSteady result = TimeToSteady.of(ready, warmupChunks, sustainedRate);
            log("time to steady: " + result.describe());
            return result;
        } catch (IOException | RuntimeException e) {
            notes.append("- Time to steady not computed: ").append(e).append(".\n");
            return null;
        }
    }

    /** One post by hand, with the first workspace: must be 202 with a pst_ id (sets {@link #sanity}). */
    void probe(String gateway) throws Exception {
        Workspace first = workspaces[0];
        Answer probe = send("POST", gateway + "/api/v1/posts", first.key(), body(-1, first),
                Map.of("Idempotency-Key", "pb-" + runId + "-probe"));
        if (probe.status != 202 || !probe.body.contains("\"pst_")) {
            throw new IllegalStateException("POST /api/v1/posts answered " + probe.status + ": " + abbreviate(probe.body, 400));
        }
        sanity = "202, " + probe.body.length() + " bytes, X-RateLimit-Limit " + probe.header("x-ratelimit-limit");
        log("sanity: POST /api/v1/posts -> " + sanity);
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
        List<String> jitTrace = new ArrayList<>();
        long jitTicks = 0;
        warmupChunks.clear();
        long accepted = 0;
        Phase last = null;
        int elapsed = 0;
        boolean steady = false;
        while (elapsed < warmupMaxSeconds && !budgetExhausted()) {
            last = closedLoop("warm-up", connections, WARMUP_CHUNK_SECONDS, pacer, true, true);
            elapsed += WARMUP_CHUNK_SECONDS;
            accepted += last.accepted();
            rates.add(last.throughput());
            warmupChunks.add(new TimeToSteady.Chunk(last.startedAt, last.endedAt, last.throughput()));
            trace.add(fmt0(last.throughput()));
            long chunkJit = last.load.threads().getOrDefault(CpuSnapshot.JIT, 0L);
            jitTicks += chunkJit;
            jitTrace.add(share(chunkJit, last.load.total()));
            log("  warm-up " + elapsed + " s: " + last.summary() + ", JIT compiler threads " + share(chunkJit, last.load.total()));
            int n = rates.size();
            // Steady: the last 30 s no more than 5% above the 30 s before, and the JIT compilers of the suite's JVMs
            // under 10% of the machine (the accepted rate alone climbs too slowly to tell).
            double jit = last.load.total() == 0 ? 1 : (double) chunkJit / last.load.total();
            steady = n >= 4 && rates.get(n - 1) + rates.get(n - 2) <= 1.05 * (rates.get(n - 3) + rates.get(n - 4)) && jit < 0.10;
            if (elapsed >= warmupSeconds && steady) {
                break;
            }
        }
        // The compilers' CPU says what a warm-up costs on this machine: all of it is taken from the services' work.
        warmupOutcome = elapsed + " s, " + accepted + " posts accepted (posts/s per 15 s chunk: " + String.join(", ", trace)
                + "; the suite's JIT compiler threads: " + fmt0((double) jitTicks / clockTicks) + " CPU-s in all, per chunk "
                + String.join(", ", jitTrace) + " of the machine)";
        if (!steady) {
            notes.append("- The warm-up reached its maximum (").append(elapsed).append(" s) before a steady rate (posts/s per 15 s chunk: ")
                    .append(String.join(", ", trace)).append("); the measurement may still include JIT warm-up.\n");
        }
        warmLast = last;
    }
}
