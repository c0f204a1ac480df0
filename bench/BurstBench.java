import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scheduled burst (issue 37): customers schedule at round times, so many posts fall due in the same second. This
 * program creates {@code --posts} test posts (one LinkedIn sandbox target each, limits on) all scheduled for one
 * instant a few minutes ahead, waits for them to publish, and reads each target's lag ({@code completed_at -
 * scheduled_at}) through the public API; then it offers a steady {@code --steady-rate} scheduled posts per second
 * (each due {@code --steady-ahead} seconds after it is sent) for {@code --steady-duration} seconds and reads their lags
 * the same way. Run by bench/burst.sh, compiled with PostsBench.java, bench/posts, bench/burst and bench/support.
 *
 * <p>It reuses PostsBench's setup (workspaces, test keys, scale plan, sandbox accounts), warm-up (gated closed loop
 * until the JIT settles), pacer (slot k goes to workspace k mod W, at most {@code --rate} slots a second) and open
 * loop. See bench/README.md, section "Scheduled burst".
 */
public class BurstBench extends PostsBench {
    /** What the warm-up may spend of the workspaces' test publications, per second of --warmup-max (sizing only). */
    static final int WARMUP_POSTS_PER_SECOND = 300;
    /**
     * Acceptance stops this long before the instant: the API refuses a scheduled_at less than 5 s ahead when it reads
     * the request, which on a busy machine is seconds after it was sent.
     */
    static final Duration CUTOFF = Duration.ofSeconds(10);
    /** The lead time chosen from the warm-up's rate: this factor on the time acceptance should take, plus SLACK. */
    static final double LEAD_FACTOR = 1.5;
    static final Duration SLACK = Duration.ofSeconds(15);
    /** The acceptance rate --lead auto assumes without a warm-up to measure it. */
    static final double UNMEASURED_RATE = 50;
    static final int SETUP_RETRIES = 3;

    enum Mode { WARMUP, BURST, STEADY }

    final int burstPosts = intOpt("posts", 10_000);
    final String leadOption = opt("lead", "auto");
    final int deadlineSeconds = intOpt("deadline", 180);
    final double steadyRate = Double.parseDouble(opt("steady-rate", "50"));
    final int steadyDuration = intOpt("steady-duration", 180);
    final int steadyAhead = intOpt("steady-ahead", 10);
    final Path plot = Path.of(opt("plot", state.resolve("burst.png").toString()));

    volatile Mode mode = Mode.WARMUP;
    final String burstMarker = "burst-" + runId;
    final String steadyMarker = "steady-" + runId;
    long warmupPostsCap;
    volatile long burstBase;
    volatile Instant instant;
    volatile String instantText;
    volatile long steadyBase;
    volatile Instant steadyStart;

    // what the run measured, for BurstReport
    double warmupRate;
    String leadChoice = "";
    Phase burstPhase;
    Instant burstSentAt;
    final List<long[]> pendingAfterInstant = new ArrayList<>();
    CpuUse burstCpu = CpuUse.NONE;
    LagSummary burst;
    Phase steadyPhase;
    LagSummary steady;

    public static void main(String[] args) throws Exception {
        parseOptions(args);
        BurstBench bench = new BurstBench();
        try {
            bench.runBurst();
        } finally {
            bench.setupPool.shutdownNow();
        }
    }

    void runBurst() throws Exception {
        Properties credentials = load(state.resolve("credentials"));
        String gateway = "http://127.0.0.1:" + gatewayPort;
        sizeBurst();
        log("sizing: " + sizing);
        postsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "herald_posts", "burst-bench", 60_000);
        statsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "postgres", "burst-bench", 60_000);
        postgresSettings = postsDb.query("select current_setting('server_version') || ', synchronous_commit ' "
                + "|| current_setting('synchronous_commit') || ', fsync ' || current_setting('fsync') || ', shared_buffers ' "
                + "|| current_setting('shared_buffers')").get(0)[0];
        setup(gateway, credentials.getProperty("HERALD_ADMIN_TOKEN"));
        probe(gateway);
        idleReport = CpuSnapshot.waitForQuietMachine(state, waitIdleSeconds, notes, "the lags are pessimistic and noisy.");
        log("machine: " + idleReport);

        // ---- warm-up: posts due now, the gated closed loop of the posts benchmark, then drained
        gate.start();
        Pacer pacer = new Pacer(rate);
        warmUp(pacer);
        if (warmLast != null) {
            drain(warmLast);
        }
        gate.stop();
        warmupRate = warmLast == null ? 0 : warmLast.accepted() * 1e9 / Math.max(1e9, warmLast.nanos - warmLast.gateClosedNanos);

        // ---- the burst: every post scheduled for one instant, accepted before it
        chooseInstant();
        log("burst: " + burstPosts + " posts due at " + instantText + " (" + leadChoice + ")");
        burstPhase = acceptBurst(pacer);
        log("  " + burstPhase.summary() + "; last answer " + Duration.between(burstSentAt, instant).toMillis() / 1000.0
                + " s before the instant");
        Instant burstDeadline = instant.plusSeconds(deadlineSeconds);
        burstCpu = waitForFinal(instant, burstDeadline, pendingAfterInstant);
        burst = new LagSummary(Outcomes.read(http, gateway, Arrays.asList(workspaces), burstMarker, setupPool), burstDeadline,
                burstPosts);
        log(String.format(Locale.ROOT, "  burst read through the API: %d posts, %d published, %d failed, %d not final, %d missing; lag p50 %s, p99 %s, max %s",
                burst.outcomes.size(), burst.published, burst.failed, burst.notFinal, burst.missing, LagSummary.seconds(burst.pct(0.5), 2),
                LagSummary.seconds(burst.pct(0.99), 2), LagSummary.seconds(burst.max(), 2)));

        // ---- the steady rate: an open loop, each post due --steady-ahead s after its slot
        if (steadyDuration > 0 && steadyRate > 0) {
            mode = Mode.STEADY;
            steadyBase = slotBase.get();
            steadyStart = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            steadyPhase = openLoop("steady: " + fmt0(steadyRate) + " scheduled posts/s, each due " + steadyAhead + " s ahead",
                    steadyRate, steadyDuration);
            log("  " + steadyPhase.summary());
            Instant lastDue = steadyStart.plusSeconds(steadyDuration + steadyAhead);
            Instant steadyDeadline = lastDue.plusSeconds(drainTimeoutSeconds);
            waitForFinal(lastDue, steadyDeadline, new ArrayList<>());
            steady = new LagSummary(Outcomes.read(http, gateway, Arrays.asList(workspaces), steadyMarker, setupPool), steadyDeadline,
                    steadyPhase.accepted());
            log(String.format(Locale.ROOT, "  steady read through the API: %d posts, %d published; lag p50 %s, p99 %s, max %s",
                    steady.outcomes.size(), steady.published, LagSummary.seconds(steady.pct(0.5), 3),
                    LagSummary.seconds(steady.pct(0.99), 3), LagSummary.seconds(steady.max(), 3)));
        }

        List<LagPlot.Row> rows = new ArrayList<>();
        rows.add(new LagPlot.Row("Burst: " + burstPosts + " posts due at one instant", burst, false, instant, List.of(
                new LagPlot.Target("p50 target 10 s", 10), new LagPlot.Target("p99 target 30 s", 30), new LagPlot.Target("max target 45 s", 45))));
        if (steady != null) {
            rows.add(new LagPlot.Row("Steady: " + fmt0(steadyRate) + " scheduled posts/s", steady, true, steadyStart.plusSeconds(steadyAhead),
                    List.of(new LagPlot.Target("p99 target 1.5 s", 1.5))));
        }
        LagPlot.write(plot, rows);
        log("plot written to " + plot);
        writeResults(BurstReport.report(this));
    }

    /**
     * Workspaces so that no workspace passes 290 of its 300 requests in any calendar minute at the pacer's rate, nor 988
     * of its 1,000 test publications over the warm-up (at most WARMUP_POSTS_PER_SECOND a second of --warmup-max), the
     * burst and the steady mode. The hourly caps (API6: 20 API keys, 100 connect sessions per workspace and mode) do
     * not bind: setup makes one key and no connect session per workspace (test accounts are created directly).
     */
    void sizeBurst() {
        warmupPostsCap = (long) WARMUP_POSTS_PER_SECOND * warmupMaxSeconds;
        long steadyPosts = (long) Math.ceil(steadyRate * steadyDuration);
        long posts = warmupPostsCap + burstPosts + steadyPosts + 1;
        int usablePublications = publicationsPerMonth - 12;
        String w = opt("workspaces", "auto");
        rate = Double.parseDouble(opt("rate", "600"));
        int byMinute = (int) Math.ceil(rate * (60.0 + OPEN_LOOP_MAX_LATE_NANOS / 1e9) / usablePerMinute);
        int byMonth = (int) Math.ceil((double) posts / usablePublications);
        int steadyByMinute = (int) Math.ceil(steadyRate * 61.0 / usablePerMinute);
        int needed = Math.max(Math.max(byMinute, byMonth), steadyByMinute);
        workspaceCount = w.equals("auto") ? needed : Integer.parseInt(w);
        sizing = String.format(Locale.ROOT, "%d workspaces%s: at least %d so that none passes %d of its %d requests in any calendar "
                + "minute at the pacer's %s posts/s (and %d at the steady %s posts/s), at least %d so that none passes %d of its %d "
                + "test publications over the warm-up (at most %d posts), the burst (%d) and the steady mode (%d)",
                workspaceCount, w.equals("auto") ? "" : " (given)", byMinute, usablePerMinute, perMinute, fmt0(rate), steadyByMinute,
                fmt0(steadyRate), byMonth, usablePublications, publicationsPerMonth, warmupPostsCap, burstPosts, steadyPosts);
        if (workspaceCount < needed) {
            notes.append("- **").append(workspaceCount).append(" workspaces are fewer than the limits need (").append(needed)
                    .append(")**: 429s or exhausted publications are expected.\n");
        }
    }

    /** --lead S, or: the warm-up's accepted rate gives the time acceptance takes, x1.5 plus slack, up to the next whole minute. */
    void chooseInstant() {
        Instant now = Instant.now();
        if (leadOption.equals("auto")) {
            if (warmupRate <= 0) {
                notes.append("- No warm-up, so no measured acceptance rate: the lead assumed ").append(UNMEASURED_RATE)
                        .append(" posts/s.\n");
            }
            double acceptSeconds = burstPosts / Math.min(rate, warmupRate > 0 ? warmupRate : UNMEASURED_RATE);
            Instant earliest = now.plusMillis((long) (acceptSeconds * LEAD_FACTOR * 1000)).plus(SLACK).plus(CUTOFF);
            instant = earliest.truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
            leadChoice = String.format(Locale.ROOT, "lead %d s: the warm-up accepted %.0f posts/s while sending, so %d posts take "
                    + "about %.0f s; x%.1f, plus %d s, plus the %d s cut-off, up to the next whole minute, as customers schedule",
                    Duration.between(now, instant).toSeconds(), warmupRate, burstPosts, acceptSeconds, LEAD_FACTOR, SLACK.toSeconds(),
                    CUTOFF.toSeconds());
        } else {
            instant = now.plusSeconds(Integer.parseInt(leadOption)).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            leadChoice = "lead " + Duration.between(now, instant).toSeconds() + " s (--lead " + leadOption + ")";
        }
        instantText = instant.toString();
    }

    /** Closed loop at the largest --connections count through the pacer until --posts are sent or the cut-off. */
    Phase acceptBurst(Pacer pacer) throws Exception {
        int connections = connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(16);
        Phase phase = new Phase("burst acceptance", connections, false);
        Worker[] workers = new Worker[connections];
        for (int i = 0; i < connections; i++) {
            workers[i] = new Worker(this, phase);
            workers[i].connect();
        }
        synchronized (pacer) {
            burstBase = pacer.counter;
        }
        mode = Mode.BURST;
        AtomicLong issued = new AtomicLong();
        long seconds = Duration.between(Instant.now(), instant.minus(CUTOFF)).toSeconds();
        if (seconds < 1) {
            throw new IllegalStateException("the instant " + instantText + " leaves no time to accept the burst; raise --lead");
        }
        runWorkers(phase, workers, (int) seconds, w -> {
            while (issued.getAndIncrement() < burstPosts) {
                long k = pacer.acquire();
                if (System.nanoTime() >= w.deadline || !takeFromBudget()) {
                    break;
                }
                long t0 = System.nanoTime();
                w.exchange(k, t0, t0);
            }
        });
        burstSentAt = Instant.now();
        if (phase.total() < burstPosts) {
            notes.append("- **Only ").append(phase.total()).append(" of the burst's ").append(burstPosts).append(" posts were sent "
                    + "before the cut-off** (").append(CUTOFF.toSeconds()).append(" s before the instant): raise --lead.\n");
        }
        return phase;
    }

    /**
     * Waits until {@code from}, then polls posts-service's database every second (one count: progress only, the lags come
     * from the API) until no post is queued or publishing or {@code deadline} passes. Records (seconds after
     * {@code from}, posts pending, posts of them not yet handed to delivery) in {@code timeline}; answers the CPU used
     * from {@code from} to the end of the wait.
     */
    CpuUse waitForFinal(Instant from, Instant deadline, List<long[]> timeline) throws Exception {
        long until = Duration.between(Instant.now(), from).toMillis();
        if (until > 0) {
            Thread.sleep(until);
        }
        CpuSnapshot before = CpuSnapshot.take(state);
        while (true) {
            String[] counts = postsDb.query("select count(*), count(*) filter (where status = 'queued') from posts"
                    + " where status in ('queued', 'publishing')").get(0);
            long pending = Long.parseLong(counts[0]);
            Instant now = Instant.now();
            timeline.add(new long[] {Duration.between(from, now).toSeconds(), pending, Long.parseLong(counts[1])});
            if (pending == 0 || now.isAfter(deadline)) {
                log("  " + pending + " posts queued or publishing " + Duration.between(from, now).toSeconds() + " s after " + from);
                break;
            }
            Thread.sleep(1000);
        }
        return CpuUse.between(before, CpuSnapshot.take(state));
    }

    // ---------------------------------------------------------------- the posts' requests

    @Override
    String body(long n, Workspace w) {
        String marker;
        long order;
        String when = null;
        switch (mode) {
            case BURST -> {
                marker = burstMarker;
                order = n - burstBase;
                when = instantText;
            }
            case STEADY -> {
                marker = steadyMarker;
                order = n - steadyBase;
                when = steadyStart.plusNanos((long) (order * 1e9 / steadyRate)).plusSeconds(steadyAhead)
                        .truncatedTo(ChronoUnit.MILLIS).toString();
            }
            default -> {
                marker = "warmup-" + runId;
                order = n;
            }
        }
        // The order is the text's last word: Outcomes reads it back from GET /posts.
        return "{\"text\":\"Burst benchmark " + marker + ": one LinkedIn sandbox target in test mode, post " + order
                + "\",\"account_ids\":[\"" + w.accountId() + "\"]" + (when == null ? "" : ",\"scheduled_at\":\"" + when + "\"") + "}";
    }

    /**
     * A setup call; a 503 (a service the request needs did not answer in time, as a suite still warming up on a busy
     * machine does) is tried again up to SETUP_RETRIES times, a second apart, as its message says to. A repeated create
     * may leave an extra workspace or sandbox account behind, which the load never uses; the probe post has its key.
     */
    @Override
    Answer send(String method, String url, String bearer, String json, Map<String, String> headers) throws Exception {
        Answer a = super.send(method, url, bearer, json, headers);
        for (int retry = 0; a.status == 503 && retry < SETUP_RETRIES; retry++) {
            Thread.sleep(1000);
            a = super.send(method, url, bearer, json, headers);
        }
        return a;
    }

    /** The warm-up stops at its share of the publications, so the burst and the steady mode keep theirs. */
    @Override
    boolean takeFromBudget() {
        if (mode == Mode.WARMUP && sent.get() >= warmupPostsCap) {
            return false;
        }
        return super.takeFromBudget();
    }

    @Override
    boolean budgetExhausted() {
        return mode == Mode.WARMUP ? sent.get() >= warmupPostsCap : super.budgetExhausted();
    }
}
