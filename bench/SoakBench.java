import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak (issue 9): a long open-loop load of {@code POST /api/v1/posts} at a fixed rate (half the measured capacity
 * by default), with webhook deliveries to a receiver in this JVM, sampled every {@code --sample} seconds for the
 * signs of a slow leak or a slowly growing queue: each service JVM's heap after GC and RSS, the outbox backlog of
 * every service database, the Kafka consumer lag of every service, posts in flight, PostgreSQL's size, and the
 * latency of each window. The verdict compares the first {@code --window} seconds after the warm-up with the last
 * {@code --window} seconds against thresholds fixed below.
 *
 * <p>Run by bench/soak.sh, compiled with PostsBench.java, bench/posts and bench/support (lib.sh, bench_compile). It
 * reuses PostsBench's setup (workspaces, keys, scale plan, sandbox accounts), sizing (workspaces from rate and seconds
 * so that no workspace passes its per-minute limit or its test publications), HTTP/1.1 load connection, PostgreSQL
 * client and /proc accounting. One class over the usual 300 lines: the program reads in the order of its run (setup,
 * load and samples, verdict, report), and no other program uses its parts. See bench/README.md, section "Soak".
 */
public class SoakBench extends PostsBench {

    // ---------------------------------------------------------------- the verdict's thresholds

    /** Heap after a forced full GC, per JVM: last window's mean at most this much above the first window's... */
    static final double HEAP_GROWTH_MAX = 0.10;
    /** ...or at most this many bytes above it (small heaps: a few MiB of caches and buffers are noise). */
    static final long HEAP_GROWTH_FLOOR = 4L << 20;
    /** RSS per process (service JVMs and the Kafka broker): mean over the last window vs the first. */
    static final double RSS_GROWTH_MAX = 0.10;
    static final long RSS_GROWTH_FLOOR = 16L << 20;
    /** p99 of the last window at most this times the first window's... */
    static final double P99_RATIO_MAX = 1.5;
    /** ...or at most this many milliseconds above it (a p99 of a few ms moves by a few ms). */
    static final double P99_SLACK_MS = 10;
    /** Outbox rows, consumer lag and posts in flight: every reading of both windows at most max(this, 3 s x rate). */
    static final long BACKLOG_FLOOR = 50;
    static final double BACKLOG_SECONDS = 3;
    /** Of the posts offered after the warm-up, at least this share must be accepted (202). */
    static final double ACCEPTED_SHARE_MIN = 0.995;

    /**
     * The service JVMs, as the launcher names them (pids/<name>.pid), and the ports of their /q/metrics: the gateway's is
     * its management port (the launcher's default, HERALD_MANAGEMENT_PORT, which the bench scripts leave as is; its
     * public port, --gateway-port, answers nothing under /q).
     */
    static final String[] SERVICES = {"api-gateway", "profiles-service", "accounts-service", "posts-service", "delivery-worker",
            "webhooks-service", "usage-service"};
    static final int[] METRICS_PORTS = {9000, 8181, 8182, 8183, 8184, 8185, 8186};
    static final String KAFKA = "kafka";
    static final String[] WEBHOOK_EVENTS = {"post.published", "post.partially_failed", "post.failed", "post.canceled"};
    static final Pattern POST_ID = Pattern.compile("\"id\"\\s*:\\s*\"(pst_[0-9a-zA-Z]+)\"");

    // ---------------------------------------------------------------- layout of the run

    final int sampleSeconds = intOpt("sample", 30);
    final int gcEverySeconds = intOpt("gc-every", 300);
    /** --force-gc=false: no forced GC at all (bench/footprint.sh, whose memory readings a forced GC would shrink). */
    final boolean forceGc = !opt("force-gc", "true").equals("false");
    /** The offered rate climbs linearly from RAMP_FROM x rate to the rate over the first --ramp s (inside the warm-up). */
    final int rampSeconds = intOpt("ramp", 0);
    static final double RAMP_FROM = 0.1;
    final boolean webhooks = !opt("webhooks", "true").equals("false");
    final int receiverPort = intOpt("receiver-port", 18390);
    final int connections = intOpt("connections", 32);
    final String capacityNote = opt("rate-note", "given with --rate");
    Layout layout;
    Slot[] slots;
    long loadStartNanos;
    Instant loadStartedAt;
    volatile boolean loadRunning;
    final Map<String, Pg> outboxDbs = new TreeMap<>();
    final Map<String, long[]> acceptedPosts = new ConcurrentHashMap<>(); // post id -> {slot, accepted at (nanoTime)}
    final Map<String, Long> webhookIds = new ConcurrentHashMap<>(); // webhook-id -> receipts
    final Map<String, Long> webhookedPosts = new ConcurrentHashMap<>(); // post id -> receipts
    final AtomicLong webhookReceipts = new AtomicLong();
    final AtomicLong webhookStrays = new AtomicLong();
    HttpServer receiver;
    String setupReport = "-";
    String drainReport = "-";
    Totals totals;

    /**
     * Where the verdict looks, in seconds from the start of the load: the warm-up [0, warmup), the first window
     * [warmup, warmup + window], the last window [duration - window, duration]. All multiples of the sample.
     */
    record Layout(int sample, int warmup, int window, int duration, double rate, String adjusted) {
        int samples() {
            return duration / sample;
        }

        /** Sample i covers [i x sample, (i + 1) x sample); its point readings are taken at its end. */
        int end(int i) {
            return (i + 1) * sample;
        }

        boolean inFirst(int i) {
            return i * sample >= warmup && end(i) <= warmup + window;
        }

        boolean inLast(int i) {
            return i * sample >= duration - window;
        }

        /** Point readings (taken at the end of sample i) that fall inside the first window, both ends included. */
        boolean pointInFirst(int i) {
            return end(i) >= warmup && end(i) <= warmup + window;
        }

        boolean pointInLast(int i) {
            return end(i) >= duration - window;
        }

        static Layout of(int sample, int warmup, int window, int duration, double rate) {
            if (sample < 1 || duration < 4 * sample) {
                throw new IllegalArgumentException("--duration must be at least 4 samples (--sample " + sample + " s)");
            }
            int d = duration / sample * sample;
            int w = roundUp(warmup, sample);
            int win = window / sample * sample;
            String adjusted = "";
            if (d != duration) {
                adjusted += "duration rounded down to a multiple of the sample (" + d + " s); ";
            }
            if (w != warmup) {
                adjusted += "warm-up rounded up to a multiple of the sample (" + w + " s); ";
            }
            if (win < sample || w + 2 * win > d) {
                // A short run: a sixth for the warm-up, the rest split into the two windows.
                w = Math.max(sample, roundUp(d / 6, sample));
                win = Math.max(sample, (d - w) / 2 / sample * sample);
                adjusted += "warm-up and windows do not fit in " + d + " s: warm-up " + w + " s, windows " + win + " s; ";
            }
            return new Layout(sample, w, win, d, rate, adjusted);
        }

        static int roundUp(int v, int m) {
            return (v + m - 1) / m * m;
        }
    }

    /** One sample interval: the load sent in it (by due time), and the readings taken at its end. */
    static final class Slot {
        long offered;
        long dropped;
        long ioErrors;
        final LongList acceptNanos = new LongList();
        final Map<String, Long> others = new TreeMap<>();
        long webhooks; // receipts in the interval
        final LongList webhookNanos = new LongList(); // accepted -> webhook received, posts accepted in the interval
        // from posts-service's database at the end
        long published; // posts of the run published in the interval (finalized_at), the pipeline's output
        final LongList publishMicros = new LongList(); // accepted -> published of the posts accepted in the interval
        // readings at the interval's end
        boolean read;
        boolean forcedGc;
        long gcMillis;
        final Map<String, Long> heapAfterGc = new TreeMap<>(); // jvm_gc_live_data_size_bytes (after the last major GC)
        final Map<String, Long> heapUsed = new TreeMap<>();
        final Map<String, Long> rss = new TreeMap<>();
        final Map<String, Long> rssFile = new TreeMap<>(); // the file-backed part of rss: mapped files (Kafka's indexes), reclaimable
        final Map<String, Long> outbox = new TreeMap<>(); // per database
        final Map<String, Long> lag = new TreeMap<>(); // per service (sum over its partitions)
        long inFlight = -1;
        long dbBytes = -1;
        double cpuBusy = Double.NaN;
        double cpuOther = Double.NaN;
        String note = "";

        synchronized long accepted() {
            return acceptNanos.size;
        }

        synchronized long answeredOther() {
            return others.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    record Totals(long accepted, long found, Map<String, Long> statuses, long lost, List<String> lostExamples, long webhooksMissing,
                  List<String> missingExamples, long webhookDuplicates) {
    }

    // ---------------------------------------------------------------- main

    public static void main(String[] args) throws Exception {
        parseOptions(args);
        if (OPTIONS.containsKey("self-test")) {
            selfTest();
            return;
        }
        SoakBench bench = new SoakBench();
        try {
            bench.soak();
        } finally {
            bench.setupPool.shutdownNow();
            if (bench.receiver != null) {
                bench.receiver.stop(0);
            }
        }
    }

    /** The load lasts the whole --duration: the publications allowance must cover every second of it. */
    @Override
    double loadedSeconds() {
        return layout.duration();
    }

    void soak() throws Exception {
        layout = Layout.of(sampleSeconds, warmupSeconds, intOpt("window", 300), durationSeconds, Double.parseDouble(opt("rate", "12")));
        if (!layout.adjusted().isEmpty()) {
            notes.append("- Layout adjusted: ").append(layout.adjusted().replaceAll("; $", "")).append(".\n");
        }
        slots = new Slot[layout.samples()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot();
        }
        Properties credentials = load(state.resolve("credentials"));
        String gateway = "http://127.0.0.1:" + gatewayPort;
        size();
        log("sizing: " + sizing);
        log(String.format(Locale.ROOT, "layout: %d s at %s posts/s, a sample every %d s, warm-up %d s, windows %d s (first %d-%d s, last %d-%d s)",
                layout.duration(), fmt0(rate), layout.sample(), layout.warmup(), layout.window(), layout.warmup(),
                layout.warmup() + layout.window(), layout.duration() - layout.window(), layout.duration()));
        postsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "herald_posts", "posts-bench", 60_000);
        statsDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "postgres", "posts-bench", 60_000);
        for (String[] db : statsDb.query("select datname from pg_database where datname like 'herald%' order by 1")) {
            Pg pg = Pg.connect("127.0.0.1", postgresPort, "postgres", db[0], "posts-bench", 60_000);
            if ("t".equals(pg.query("select to_regclass('outbox') is not null").get(0)[0])) {
                outboxDbs.put(db[0], pg);
            } else {
                pg.close();
            }
        }
        log("outbox tables in " + outboxDbs.keySet());

        setup(gateway, credentials.getProperty("HERALD_ADMIN_TOKEN"));
        if (webhooks) {
            startReceiver();
            registerEndpoints(gateway);
        }
        probe(gateway);
        postgresSettings = postsDb.query("select current_setting('server_version') || ', synchronous_commit ' "
                + "|| current_setting('synchronous_commit') || ', fsync ' || current_setting('fsync') || ', shared_buffers ' "
                + "|| current_setting('shared_buffers')").get(0)[0];
        Sample baseline = read(forceGc);
        log("baseline (idle suite, after a forced GC): " + baseline.describe());
        idleReport = CpuSnapshot.waitForQuietMachine(state, waitIdleSeconds, notes, "absolute numbers are pessimistic and noisy.");
        log("machine: " + idleReport);
        int cpuTable = notes.indexOf("See the `other` row of the CPU table.");
        if (cpuTable >= 0) {
            notes.replace(cpuTable, cpuTable + 37, "See the CPU column of the samples.");
        }

        runLoad();
        drainAtEnd();
        fromDatabase();
        writeResults(report(baseline));
    }

    // ---------------------------------------------------------------- webhooks

    /** A JDK HttpServer on 127.0.0.1: 200 with no body for every delivery, counted by webhook-id and post id. */
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), receiverPort), 128);
        receiver.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "webhook-receiver");
            t.setDaemon(true);
            return t;
        }));
        receiver.createContext("/hooks/", this::receive);
        receiver.start();
    }

    void receive(HttpExchange exchange) throws IOException {
        long now = System.nanoTime();
        try (exchange; InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, -1);
            String webhookId = exchange.getRequestHeaders().getFirst("webhook-id");
            Matcher m = POST_ID.matcher(body);
            if (webhookId == null || !m.find()) {
                webhookStrays.incrementAndGet();
                return;
            }
            webhookReceipts.incrementAndGet();
            boolean firstReceipt = webhookIds.merge(webhookId, 1L, Long::sum) == 1L;
            String postId = m.group(1);
            webhookedPosts.merge(postId, 1L, Long::sum);
            if (loadStartNanos != 0) {
                int i = (int) Math.min(slots.length - 1, Math.max(0, (now - loadStartNanos) / 1_000_000_000L / layout.sample()));
                synchronized (slots[i]) {
                    slots[i].webhooks++;
                }
            }
            long[] accepted = acceptedPosts.get(postId);
            if (firstReceipt && accepted != null) {
                Slot s = slots[(int) accepted[0]];
                synchronized (s) {
                    s.webhookNanos.add(now - accepted[1]);
                }
            }
        }
    }

    /** One endpoint per workspace (its key, through the gateway), every final post event subscribed. */
    void registerEndpoints(String gateway) throws Exception {
        long t0 = System.nanoTime();
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < workspaces.length; i++) {
            int index = i;
            futures.add(setupPool.submit(() -> {
                Answer created = send("POST", gateway + "/api/v1/webhooks", workspaces[index].key(), "{\"url\":\"http://127.0.0.1:"
                        + receiverPort + "/hooks/" + index + "\",\"description\":\"soak " + runId + "\",\"events\":[\""
                        + String.join("\",\"", WEBHOOK_EVENTS) + "\"]}", Map.of());
                require(created, 201, "\"id\":\"(whe_[0-9a-zA-Z]+)\"", "POST /api/v1/webhooks");
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> f : futures) {
            f.get();
        }
        setupReport = String.format(Locale.ROOT, "one webhook endpoint per workspace (`POST /api/v1/webhooks` with its key, events %s), "
                + "all on a JDK HttpServer in the bench JVM at 127.0.0.1:%d answering 200 at once; %.1f s",
                String.join(", ", WEBHOOK_EVENTS), receiverPort, (System.nanoTime() - t0) / 1e9);
        log("webhooks: " + setupReport);
    }

    // ---------------------------------------------------------------- load

    /**
     * Open loop: post k is due at start + k / rate, whatever happened to earlier ones; --connections keep-alive
     * connections take the due posts in turn, and latency runs from the due time (a stall in the system counts, no
     * coordinated omission). A post more than a second late is dropped and counted (it keeps the per-minute bound
     * the sizing relies on). The sampler runs beside the load, at each sample's end.
     */
    void runLoad() throws Exception {
        Phase phase = new Phase("soak", connections, true);
        Worker[] workers = new Worker[connections];
        for (int i = 0; i < connections; i++) {
            workers[i] = new Worker(this, phase);
            workers[i].connect();
        }
        AtomicLong nextSlot = new AtomicLong();
        double ramp = Math.min(rampSeconds, layout.warmup());
        lastCpu = CpuSnapshot.take(state);
        loadStartNanos = System.nanoTime();
        loadStartedAt = Instant.now();
        long deadline = loadStartNanos + layout.duration() * 1_000_000_000L;
        loadRunning = true;
        log(String.format(Locale.ROOT, "load: %s posts/s for %d s over %d workspaces, %d connections", fmt0(rate), layout.duration(),
                workspaceCount, connections));
        Thread[] threads = new Thread[connections];
        for (int c = 0; c < connections; c++) {
            Worker w = workers[c];
            w.start = loadStartNanos;
            w.deadline = deadline;
            threads[c] = new Thread(() -> {
                while (true) {
                    long k = nextSlot.getAndIncrement();
                    long due = loadStartNanos + (long) (dueSeconds(k, rate, ramp) * 1e9);
                    if (due >= deadline) {
                        return;
                    }
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    int index = (int) Math.min(slots.length - 1, (due - loadStartNanos) / 1_000_000_000L / layout.sample());
                    Slot slot = slots[index];
                    synchronized (slot) {
                        slot.offered++;
                    }
                    long t0 = System.nanoTime();
                    if (t0 - due > OPEN_LOOP_MAX_LATE_NANOS) {
                        synchronized (slot) {
                            slot.dropped++;
                        }
                        continue;
                    }
                    if (!takeFromBudget()) {
                        return;
                    }
                    w.exchange(k, due, t0);
                    absorb(w, index, due);
                }
            }, "soak-load-" + c);
            threads[c].start();
        }
        for (int i = 0; i < slots.length; i++) {
            long at = loadStartNanos + layout.end(i) * 1_000_000_000L;
            long wait = at - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            Sample s = read(forceGcAt(layout.end(i)));
            s.store(slots[i]);
            log(String.format(Locale.ROOT, "t=%4d s: offered %d, accepted %d, other answers %d, dropped %d, accept p99 %s ms | %s",
                    layout.end(i), slots[i].offered, slots[i].accepted(), slots[i].answeredOther(), slots[i].dropped,
                    ms(pct(sorted(slots[i].acceptNanos), 0.99)), s.describe()));
        }
        for (Thread t : threads) {
            t.join();
        }
        loadRunning = false;
        for (Worker w : workers) {
            w.close();
        }
    }

    /** Moves what the worker recorded for one post into its slot (the worker's own thread: no race). */
    void absorb(Worker w, int index, long due) {
        Slot slot = slots[index];
        synchronized (slot) {
            for (int i = 0; i < w.latencies.size; i++) {
                slot.acceptNanos.add(w.latencies.values[i]);
                if (i < w.postIds.size()) {
                    acceptedPosts.put(w.postIds.get(i), new long[] {index, due + w.latencies.values[i]});
                }
            }
            w.others.forEach((k, v) -> slot.others.merge(k, v, Long::sum));
            slot.ioErrors += w.ioErrors;
            if (w.ioErrors > 0) {
                slot.others.merge("I/O error", w.ioErrors, Long::sum);
            }
        }
        w.latencies.size = 0;
        w.serviceTimes.size = 0;
        w.postIds.clear();
        w.others.clear();
        w.ioErrors = 0;
    }

    /**
     * When post k is due, in seconds from the load's start: the rate climbs linearly from RAMP_FROM x rate to the rate
     * over the first {@code ramp} seconds, then stays. Posts due by t: r0 t + (r - r0) t^2 / 2T during the ramp.
     */
    static double dueSeconds(long k, double rate, double ramp) {
        double r0 = RAMP_FROM * rate;
        double rampPosts = (r0 + rate) / 2 * ramp;
        if (ramp <= 0 || k >= rampPosts) {
            return Math.max(0, ramp) + (k - Math.max(0, rampPosts)) / rate;
        }
        double a = (rate - r0) / (2 * ramp);
        return (-r0 + Math.sqrt(r0 * r0 + 4 * a * k)) / (2 * a);
    }

    /** A full GC is forced at the warm-up's end, every --gc-every s after it, at both ends of both windows, and at the end. */
    boolean forceGcAt(int t) {
        int w = layout.warmup();
        return forceGc && (t == w || t == w + layout.window() || t == layout.duration() - layout.window() || t == layout.duration()
                || (gcEverySeconds > 0 && t > w && (t - w) % gcEverySeconds == 0));
    }

    // ---------------------------------------------------------------- readings

    /** Point readings of the whole suite. */
    final class Sample {
        boolean forcedGc;
        long gcMillis;
        final Map<String, Long> heapAfterGc = new TreeMap<>();
        final Map<String, Long> heapUsed = new TreeMap<>();
        final Map<String, Long> rss = new TreeMap<>();
        final Map<String, Long> rssFile = new TreeMap<>();
        final Map<String, Long> outbox = new TreeMap<>();
        final Map<String, Long> lag = new TreeMap<>();
        long inFlight = -1;
        long dbBytes = -1;
        double cpuBusy = Double.NaN;
        double cpuOther = Double.NaN;
        final List<String> problems = new ArrayList<>();

        void store(Slot s) {
            synchronized (s) {
                s.read = true;
                s.forcedGc = forcedGc;
                s.gcMillis = gcMillis;
                s.heapAfterGc.putAll(heapAfterGc);
                s.heapUsed.putAll(heapUsed);
                s.rss.putAll(rss);
                s.rssFile.putAll(rssFile);
                s.outbox.putAll(outbox);
                s.lag.putAll(lag);
                s.inFlight = inFlight;
                s.dbBytes = dbBytes;
                s.cpuBusy = cpuBusy;
                s.cpuOther = cpuOther;
                s.note = String.join("; ", problems);
            }
        }

        String describe() {
            return String.format(Locale.ROOT, "heap after GC %s MiB%s, RSS %s MiB, outbox %s, lag %s, in flight %d, DB %s MiB, CPU %s%% (other %s%%)%s",
                    mib(sum(heapAfterGc)), forcedGc ? " (forced, " + gcMillis + " ms)" : "", mib(sum(rss)), fmt0(sum(outbox)), lag.isEmpty() ? "-" : fmt0(sum(lag)),
                    inFlight, mib(dbBytes), fmtMs(cpuBusy), fmtMs(cpuOther), problems.isEmpty() ? "" : " [" + String.join("; ", problems) + "]");
        }
    }

    CpuSnapshot lastCpu;

    Sample read(boolean forceGc) {
        Sample s = new Sample();
        Map<String, Long> pids = pids();
        if (forceGc) {
            long t0 = System.nanoTime();
            for (String process : concat(SERVICES, KAFKA)) {
                Long pid = pids.get(process);
                if (pid != null) {
                    String problem = gcRun(pid);
                    if (problem != null) {
                        s.problems.add("GC.run " + process + ": " + abbreviate(problem, 120));
                    }
                }
            }
            // The broker exposes no Micrometer endpoint; right after its full GC, the heap in use is its live set.
            Long broker = pids.get(KAFKA);
            if (broker != null) {
                long used = heapUsedBytes(jcmd(broker, "GC.heap_info"));
                if (used >= 0) {
                    s.heapAfterGc.put(KAFKA, used);
                } else {
                    s.problems.add("GC.heap_info " + KAFKA + ": no heap figures");
                }
            }
            s.forcedGc = true;
            s.gcMillis = (System.nanoTime() - t0) / 1_000_000;
            sleep(300); // micrometer updates the live-data gauge from the GC notification, on its own thread
        }
        for (int i = 0; i < SERVICES.length; i++) {
            String service = SERVICES[i];
            int port = METRICS_PORTS[i];
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/metrics"))
                        .timeout(java.time.Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    s.problems.add(service + " /q/metrics " + r.statusCode());
                    continue;
                }
                Metrics m = Metrics.parse(r.body());
                if (m.has("jvm_gc_live_data_size_bytes")) {
                    s.heapAfterGc.put(service, (long) m.sum("jvm_gc_live_data_size_bytes", ""));
                }
                s.heapUsed.put(service, (long) m.sum("jvm_memory_used_bytes", "area=\"heap\""));
                if (m.has("kafka_consumer_fetch_manager_records_lag")) {
                    s.lag.put(service, (long) m.sum("kafka_consumer_fetch_manager_records_lag", "partition="));
                }
            } catch (Exception e) {
                s.problems.add(service + " /q/metrics: " + e.getClass().getSimpleName());
            }
        }
        for (Map.Entry<String, Long> p : pids.entrySet()) {
            long rss = procStatusBytes(p.getValue(), "VmRSS:");
            if (rss >= 0) {
                s.rss.put(p.getKey(), rss);
                s.rssFile.put(p.getKey(), procStatusBytes(p.getValue(), "RssFile:"));
            }
        }
        for (Map.Entry<String, Pg> db : outboxDbs.entrySet()) {
            try {
                s.outbox.put(db.getKey(), Long.parseLong(db.getValue().query("select count(*) from outbox where published_at is null").get(0)[0]));
            } catch (Exception e) {
                s.problems.add("outbox " + db.getKey() + ": " + e.getMessage());
            }
        }
        try {
            s.inFlight = Long.parseLong(postsDb.query("select count(*) from posts where status in ('queued', 'publishing')").get(0)[0]);
            s.dbBytes = Long.parseLong(statsDb.query("select coalesce(sum(pg_database_size(datname)), 0) from pg_database where datname like 'herald%'").get(0)[0]);
        } catch (Exception e) {
            s.problems.add("posts in flight / database size: " + e.getMessage());
        }
        CpuSnapshot cpu = CpuSnapshot.take(state);
        if (lastCpu != null) {
            long total = Math.max(1, cpu.systemTotal - lastCpu.systemTotal);
            s.cpuBusy = 100.0 * (cpu.systemBusy - lastCpu.systemBusy) / total;
            s.cpuOther = 100.0 * cpu.minus(lastCpu).getOrDefault("other", 0L) / total;
        }
        lastCpu = cpu;
        return s;
    }

    /** Service and Kafka pids from the suite's pids/ directory. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new TreeMap<>();
        for (String name : concat(SERVICES, KAFKA)) {
            try {
                pids.put(name, Long.parseLong(Files.readString(state.resolve("pids").resolve(name + ".pid")).trim()));
            } catch (IOException | RuntimeException e) {
                // not running: the reading is missing, and the table shows it
            }
        }
        return pids;
    }

    static String[] concat(String[] a, String b) {
        String[] all = Arrays.copyOf(a, a.length + 1);
        all[a.length] = b;
        return all;
    }

    /** A size line of /proc/<pid>/status (VmRSS:, RssFile:, ...) in bytes; -1 when the process is gone. */
    static long procStatusBytes(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return -1;
    }

    /** {@code jcmd <pid> GC.run}; null when done, else what went wrong. */
    static String gcRun(long pid) {
        String out = jcmd(pid, "GC.run");
        return out.isBlank() || out.contains("Command executed successfully") ? null : out;
    }

    /**
     * A diagnostic command's output, through the attach API in this JVM (a jcmd process per call is a JVM start each,
     * seconds of CPU on this machine); the jcmd tool when the attach API is not open to this class.
     */
    static String jcmd(long pid, String command) {
        try {
            Class<?> vmClass = Class.forName("com.sun.tools.attach.VirtualMachine");
            Object vm = vmClass.getMethod("attach", String.class).invoke(null, String.valueOf(pid));
            try {
                java.lang.reflect.Method jcmd = Class.forName("sun.tools.attach.HotSpotVirtualMachine").getMethod("executeJCmd", String.class);
                try (InputStream in = (InputStream) jcmd.invoke(vm, command)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            } finally {
                vmClass.getMethod("detach").invoke(vm);
            }
        } catch (ReflectiveOperationException | RuntimeException | IOException e) {
            return run(List.of(jcmd(), String.valueOf(pid), command), 60);
        }
    }

    static final Pattern HEAP_SPACE = Pattern.compile("(?:generation|heap)\\s+total\\s+\\d+K,\\s+used\\s+(\\d+)K");

    /** Heap in use from {@code GC.heap_info} (Serial: young + tenured generations; G1: the one heap line); -1 if absent. */
    static long heapUsedBytes(String heapInfo) {
        Matcher m = HEAP_SPACE.matcher(heapInfo);
        long used = -1;
        while (m.find()) {
            used = Math.max(used, 0) + Long.parseLong(m.group(1)) * 1024;
        }
        return used;
    }

    static String jcmd() {
        Path p = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        return Files.isExecutable(p) ? p.toString() : "jcmd";
    }

    static String run(List<String> command, int seconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A Prometheus text page: value sums by series name, over the lines whose labels contain a given text. */
    record Metrics(List<String[]> lines) {
        static Metrics parse(String text) {
            List<String[]> lines = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int brace = line.indexOf('{');
                int space = line.lastIndexOf(' ');
                if (space < 0) {
                    continue;
                }
                String name = brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, space).trim();
                String labels = brace >= 0 && brace < space ? line.substring(brace, line.lastIndexOf('}') + 1) : "";
                lines.add(new String[] {name, labels, line.substring(space + 1)});
            }
            return new Metrics(lines);
        }

        boolean has(String name) {
            return lines.stream().anyMatch(l -> l[0].equals(name));
        }

        double sum(String name, String labelContains) {
            double sum = 0;
            for (String[] l : lines) {
                if (l[0].equals(name) && l[1].contains(labelContains)) {
                    try {
                        double v = Double.parseDouble(l[2]);
                        if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                            sum += v;
                        }
                    } catch (NumberFormatException e) {
                        // not a number
                    }
                }
            }
            return sum;
        }
    }

    // ---------------------------------------------------------------- end of the run

    /** After the load: waits (at most --drain-timeout) for every post to be final and every webhook to arrive. */
    void drainAtEnd() throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + drainTimeoutSeconds * 1_000_000_000L;
        String pending = "?";
        long missing = -1;
        while (System.nanoTime() < deadline) {
            pending = postsDb.query("select count(*) from posts where status in ('queued', 'publishing')").get(0)[0];
            missing = webhooks ? acceptedPosts.size() - acceptedPosts.keySet().stream().filter(webhookedPosts::containsKey).count() : 0;
            if (pending.equals("0") && missing <= 0) {
                break;
            }
            Thread.sleep(500);
        }
        drainReport = String.format(Locale.ROOT, "%.1f s after the load: %s posts queued or publishing, %s accepted posts without a webhook yet",
                (System.nanoTime() - t0) / 1e9, pending, webhooks ? String.valueOf(missing) : "(webhooks off)");
        log("drain: " + drainReport);
    }

    /** From posts-service's database: every accepted post's status and accepted -> published time, and the output per slot. */
    void fromDatabase() throws Exception {
        double startEpoch = loadStartedAt.toEpochMilli() / 1000.0;
        Map<String, Long> statuses = new TreeMap<>();
        long found = 0;
        long lost = 0;
        List<String> lostExamples = new ArrayList<>();
        List<String[]> rows = postsDb.query("select id, status, extract(epoch from finalized_at)::float8, "
                + "(extract(epoch from finalized_at - created_at) * 1000000)::bigint from posts");
        Map<String, String> statusOf = new java.util.HashMap<>();
        for (String[] r : rows) {
            long[] accepted = acceptedPosts.get(r[0]);
            if (r[2] != null && "published".equals(r[1])) {
                int i = (int) Math.floor((Double.parseDouble(r[2]) - startEpoch) / layout.sample());
                if (i >= 0 && i < slots.length && accepted != null) {
                    slots[i].published++;
                }
            }
            if (accepted == null) {
                continue; // the probe
            }
            found++;
            statusOf.put(r[0], r[1]);
            statuses.merge(r[1], 1L, Long::sum);
            if ("published".equals(r[1]) && r[3] != null) {
                slots[(int) accepted[0]].publishMicros.add(Long.parseLong(r[3]));
            }
        }
        for (String id : acceptedPosts.keySet()) {
            String st = statusOf.get(id);
            if (st == null || st.equals("queued") || st.equals("publishing")) {
                lost++;
                if (lostExamples.size() < 10) {
                    lostExamples.add(id + " (" + (st == null ? "no row" : st) + ")");
                }
            }
        }
        long missing = 0;
        List<String> missingExamples = new ArrayList<>();
        if (webhooks) {
            for (String id : acceptedPosts.keySet()) {
                String st = statusOf.get(id);
                if (st != null && !st.equals("queued") && !st.equals("publishing") && !webhookedPosts.containsKey(id)) {
                    missing++;
                    if (missingExamples.size() < 10) {
                        missingExamples.add(id);
                    }
                }
            }
        }
        long duplicates = webhookIds.values().stream().mapToLong(v -> v - 1).sum();
        totals = new Totals(acceptedPosts.size(), found, statuses, lost, lostExamples, missing, missingExamples, duplicates);
        log(String.format(Locale.ROOT, "posts: %d accepted, statuses %s, lost %d; webhooks: %d received, %d duplicates, %d missing",
                acceptedPosts.size(), statuses, lost, webhookReceipts.get(), duplicates, missing));
    }

    // ---------------------------------------------------------------- verdict

    record Check(String what, String first, String last, String threshold, Boolean ok) {
        String verdict() {
            return ok == null ? "**not measured**" : ok ? "flat" : "**NOT flat**";
        }
    }

    static long backlogBound(double rate) {
        return Math.max(BACKLOG_FLOOR, (long) Math.ceil(BACKLOG_SECONDS * rate));
    }

    /** Every check of the verdict; pure (the self-test feeds it made-up runs). */
    static List<Check> verdict(Layout layout, Slot[] slots, Totals totals, boolean webhooks) {
        List<Check> checks = new ArrayList<>();
        // heap after a forced full GC, per JVM
        for (String process : concat(SERVICES, KAFKA)) {
            double f = mean(slots, layout, true, s -> s.forcedGc ? value(s.heapAfterGc, process) : Double.NaN);
            double l = mean(slots, layout, false, s -> s.forcedGc ? value(s.heapAfterGc, process) : Double.NaN);
            checks.add(growth("heap after forced GC, " + process, f, l, HEAP_GROWTH_MAX, HEAP_GROWTH_FLOOR));
        }
        for (String process : concat(SERVICES, KAFKA)) {
            double f = mean(slots, layout, true, s -> value(s.rss, process));
            double l = mean(slots, layout, false, s -> value(s.rss, process));
            checks.add(growth("RSS, " + process, f, l, RSS_GROWTH_MAX, RSS_GROWTH_FLOOR));
        }
        long bound = backlogBound(layout.rate());
        checks.add(bounded("outbox backlog, all services (unpublished rows)", slots, layout, s -> s.read && !s.outbox.isEmpty() ? sum(s.outbox) : Double.NaN, bound));
        checks.add(bounded("Kafka consumer lag, all services (records)", slots, layout, s -> s.read && !s.lag.isEmpty() ? sum(s.lag) : Double.NaN, bound));
        checks.add(bounded("posts queued or publishing", slots, layout, s -> s.read && s.inFlight >= 0 ? s.inFlight : Double.NaN, bound));
        checks.add(p99("p99 acceptance (POST /posts via the gateway)", slots, layout, s -> s.acceptNanos, 1e6));
        checks.add(p99("p99 accepted -> published", slots, layout, s -> s.publishMicros, 1e3));
        if (webhooks) {
            checks.add(p99("p99 accepted -> webhook received", slots, layout, s -> s.webhookNanos, 1e6));
        }
        // the load itself, after the warm-up
        long offered = 0;
        long accepted = 0;
        long errors = 0;
        Map<String, Long> answers = new TreeMap<>();
        for (int i = 0; i < slots.length; i++) {
            if (i * layout.sample() >= layout.warmup()) {
                offered += slots[i].offered;
                accepted += slots[i].accepted();
            }
            slots[i].others.forEach((k, v) -> answers.merge(k, v, Long::sum));
        }
        for (Map.Entry<String, Long> e : answers.entrySet()) {
            if (!e.getKey().startsWith("429")) {
                errors += e.getValue();
            }
        }
        double share = offered == 0 ? Double.NaN : (double) accepted / offered;
        checks.add(new Check("posts accepted of those offered after the warm-up", "-", offered == 0 ? "-" : accepted + " of " + offered
                + String.format(Locale.ROOT, " (%.2f%%)", 100 * share), String.format(Locale.ROOT, ">= %.1f%%", 100 * ACCEPTED_SHARE_MIN),
                offered == 0 ? null : share >= ACCEPTED_SHARE_MIN));
        checks.add(new Check("errors: answers other than 202 and 429, and I/O errors (whole run)", "-", String.valueOf(errors), "0", errors == 0));
        if (totals != null) {
            checks.add(new Check("posts lost: accepted, not final after the drain", "-", String.valueOf(totals.lost()), "0", totals.lost() == 0));
            if (webhooks) {
                checks.add(new Check("final posts without a webhook after the drain", "-", String.valueOf(totals.webhooksMissing()), "0",
                        totals.webhooksMissing() == 0));
            }
        } else {
            checks.add(new Check("posts lost: accepted, not final after the drain", "-", "-", "0", null));
        }
        return checks;
    }

    static double value(Map<String, Long> m, String key) {
        Long v = m.get(key);
        return v == null ? Double.NaN : v;
    }

    /** Mean of the point readings in the first (or last) window; NaN readings are skipped; NaN when none. */
    static double mean(Slot[] slots, Layout layout, boolean first, ToDoubleFunction<Slot> f) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].read && (first ? layout.pointInFirst(i) : layout.pointInLast(i))) {
                double v = f.applyAsDouble(slots[i]);
                if (!Double.isNaN(v)) {
                    sum += v;
                    n++;
                }
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    static double max(Slot[] slots, Layout layout, boolean first, ToDoubleFunction<Slot> f) {
        double max = Double.NaN;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].read && (first ? layout.pointInFirst(i) : layout.pointInLast(i))) {
                double v = f.applyAsDouble(slots[i]);
                if (!Double.isNaN(v) && (Double.isNaN(max) || v > max)) {
                    max = v;
                }
            }
        }
        return max;
    }

    static Check growth(String what, double first, double last, double share, long floor) {
        String threshold = String.format(Locale.ROOT, "last <= first + max(%.0f%%, %d MiB)", 100 * share, floor >> 20);
        if (Double.isNaN(first) || Double.isNaN(last)) {
            return new Check(what, mibText(first), mibText(last), threshold, null);
        }
        double allowed = Math.max(share * first, floor);
        return new Check(what, mibText(first), mibText(last) + String.format(Locale.ROOT, " (%+.1f%%)", 100 * (last - first) / first), threshold,
                last - first <= allowed);
    }

    static Check bounded(String what, Slot[] slots, Layout layout, ToDoubleFunction<Slot> f, long bound) {
        double first = max(slots, layout, true, f);
        double last = max(slots, layout, false, f);
        String threshold = "every reading of both windows <= " + bound;
        if (Double.isNaN(first) || Double.isNaN(last)) {
            return new Check(what, "max " + fmt0(first), "max " + fmt0(last), threshold, null);
        }
        return new Check(what, "max " + fmt0(first), "max " + fmt0(last), threshold, first <= bound && last <= bound);
    }

    static Check p99(String what, Slot[] slots, Layout layout, java.util.function.Function<Slot, LongList> f, double unitsPerMs) {
        LongList first = new LongList();
        LongList last = new LongList();
        for (int i = 0; i < slots.length; i++) {
            if (layout.inFirst(i)) {
                first.addAll(f.apply(slots[i]));
            }
            if (layout.inLast(i)) {
                last.addAll(f.apply(slots[i]));
            }
        }
        String threshold = String.format(Locale.ROOT, "last <= max(%.1f x first, first + %.0f ms)", P99_RATIO_MAX, P99_SLACK_MS);
        if (first.size == 0 || last.size == 0) {
            return new Check(what, first.size + " samples", last.size + " samples", threshold, null);
        }
        double a = pct(sorted(first), 0.99) / unitsPerMs;
        double b = pct(sorted(last), 0.99) / unitsPerMs;
        return new Check(what, fmtMs(a) + " ms (n=" + first.size + ")", fmtMs(b) + " ms (n=" + last.size + ")", threshold,
                b <= Math.max(P99_RATIO_MAX * a, a + P99_SLACK_MS));
    }

    static long[] sorted(LongList l) {
        long[] a = l.toArray();
        Arrays.sort(a);
        return a;
    }

    static double sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    static String mib(double bytes) {
        return bytes < 0 || Double.isNaN(bytes) ? "-" : String.format(Locale.ROOT, "%.0f", bytes / (1 << 20));
    }

    static String mibText(double bytes) {
        return Double.isNaN(bytes) ? "-" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    // ---------------------------------------------------------------- report

    String report(Sample baseline) {
        List<Check> checks = verdict(layout, slots, totals, webhooks);
        boolean pass = checks.stream().allMatch(c -> Boolean.TRUE.equals(c.ok()));
        StringBuilder out = new StringBuilder();
        String when = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC).format(loadStartedAt);
        out.append("# Soak: ").append(layout.duration() / 60.0 % 1 == 0 ? layout.duration() / 60 + " minutes" : layout.duration() + " s")
                .append(" at ").append(fmt0(rate)).append(" posts/s (").append(when).append(")\n\n");
        out.append("**Verdict: ").append(pass ? "PASS** (every check flat)" : "FAIL** (" + checks.stream().filter(c -> !Boolean.TRUE.equals(c.ok())).count()
                + " of " + checks.size() + " checks not flat or not measured; see Verdict)").append("\n\n");

        out.append("## Run\n\n| | |\n|---|---|\n");
        row(out, "code", opt("source", "?"));
        row(out, "machine", opt("machine", "?"));
        row(out, "machine load", opt("quiet", "") + idleReport + "; during the load: other processes " + fmt1(avg(s -> s.cpuOther)) + "% of the CPU on average (max "
                + fmt1(maxOf(s -> s.cpuOther)) + "%), whole machine busy " + fmt1(avg(s -> s.cpuBusy)) + "%");
        row(out, "command", "`" + opt("command", "bench/soak.sh") + "`");
        row(out, "offered rate", fmt1(rate) + " posts/s, open loop (" + capacityNote + ")"
                + (rampSeconds > 0 ? String.format(Locale.ROOT, "; climbing linearly from %s posts/s over the first %d s of the warm-up",
                        fmt1(RAMP_FROM * rate), Math.min(rampSeconds, layout.warmup())) : ""));
        row(out, "layout", String.format(Locale.ROOT, "%d s of load, a sample every %d s; warm-up %d s (not judged); first window %d-%d s, last window %d-%d s%s",
                layout.duration(), layout.sample(), layout.warmup(), layout.warmup(), layout.warmup() + layout.window(),
                layout.duration() - layout.window(), layout.duration(), layout.adjusted().isEmpty() ? "" : " (" + layout.adjusted().replaceAll("; $", "") + ")"));
        row(out, "workspaces", sizing + "; " + planAnswers + " plan changes to scale, X-RateLimit-Limit " + rateLimitSeen);
        row(out, "posts", "`POST /api/v1/posts` through the gateway, one LinkedIn sandbox target, test mode, a unique Idempotency-Key, workspace k mod W for post k; "
                + connections + " keep-alive connections; a post more than 1 s behind its due time is dropped and counted; latency from the due time");
        row(out, "webhooks", webhooks ? setupReport : "off (--no-webhooks)");
        row(out, "forced full GCs", "`GC.run` (jcmd's command, through the attach API) on every service JVM and the Kafka broker at " + gcTimes() + " s, just before those readings (marked *); "
                + "heap after GC = `jvm_gc_live_data_size_bytes` (old generation after the last major GC) for the services, "
                + "the heap in use per `GC.heap_info` right after the forced GC for the broker (it has no metrics endpoint)");
        row(out, "drain", drainReport);
        row(out, "PostgreSQL", postgresSettings);
        row(out, "baseline (idle, after setup, forced GC)", baseline.describe());
        out.append('\n');

        out.append("## Verdict\n\nFirst window vs last window. Thresholds (constants in `bench/SoakBench.java`): heap after a forced full GC per JVM: "
                + String.format(Locale.ROOT, "mean of the last window's readings at most %.0f%% (or %d MiB, whichever is larger) above the first's; RSS per process: %.0f%% or %d MiB; ",
                100 * HEAP_GROWTH_MAX, HEAP_GROWTH_FLOOR >> 20, 100 * RSS_GROWTH_MAX, RSS_GROWTH_FLOOR >> 20)
                + "outbox backlog, consumer lag and posts in flight: every reading in both windows at most max(" + BACKLOG_FLOOR + ", "
                + fmt0(BACKLOG_SECONDS) + " s x rate) = " + backlogBound(rate) + "; p99s over all requests of each window: last at most "
                + fmt1(P99_RATIO_MAX) + " x first (or first + " + fmt0(P99_SLACK_MS) + " ms); nothing lost, no error, "
                + fmt1(100 * ACCEPTED_SHARE_MIN) + "% of the offered posts accepted. A check without data is **not measured**, which fails the run.\n\n");
        out.append("| check | first window | last window | threshold | verdict |\n|---|---|---|---|---|\n");
        for (Check c : checks) {
            out.append("| ").append(c.what()).append(" | ").append(c.first()).append(" | ").append(c.last()).append(" | ").append(c.threshold())
                    .append(" | ").append(c.verdict()).append(" |\n");
        }
        out.append('\n');

        out.append("## Totals\n\n| | |\n|---|---|\n");
        long offered = Arrays.stream(slots).mapToLong(s -> s.offered).sum();
        long dropped = Arrays.stream(slots).mapToLong(s -> s.dropped).sum();
        Map<String, Long> answers = new TreeMap<>();
        for (Slot s : slots) {
            s.others.forEach((k, v) -> answers.merge(k, v, Long::sum));
        }
        row(out, "offered / accepted (202) / dropped (late)", offered + " / " + totals.accepted() + " / " + dropped);
        row(out, "other answers", answers.isEmpty() ? "none" : answers.toString());
        row(out, "accepted posts found in posts-service, by status", totals.found() + ": " + totals.statuses());
        row(out, "lost (accepted, not final after the drain)", totals.lost() + (totals.lostExamples().isEmpty() ? "" : " e.g. " + totals.lostExamples()));
        if (webhooks) {
            row(out, "webhook requests received", webhookReceipts.get() + " (" + webhookIds.size() + " distinct webhook-ids, " + totals.webhookDuplicates()
                    + " repeats; " + webhookStrays.get() + " unrecognised)");
            row(out, "final posts without a webhook", totals.webhooksMissing() + (totals.missingExamples().isEmpty() ? "" : " e.g. " + totals.missingExamples()));
        }
        out.append('\n');
        if (notes.length() > 0) {
            out.append("## Notes\n\n").append(notes).append('\n');
        }

        out.append("## Samples\n\nOne row per sample: the load by due time in the interval ending at `t`, `published` = posts of the run that became published in "
                + "the interval (the pipeline's output), latencies of the posts due in the interval, then point readings at `t`. Heap after GC is the sum over "
                + "the seven service JVMs, plus the Kafka broker in the readings after a forced full GC (*); RSS = the service JVMs and the Kafka broker; outbox = unpublished rows in every "
                + "service database; lag = the services' consumer lag (sum of `kafka_consumer_fetch_manager_records_lag`); DB = size of the herald databases. "
                + "W = warm-up, F = first window, L = last window.\n\n");
        out.append("| t (s) | | offered | accepted | other | dropped | accept p50 / p99 / max (ms) | acc -> pub p50 / p99 (ms) | published | webhooks | "
                + "acc -> webhook p99 (ms) | in flight | outbox | lag | heap after GC (MiB) | RSS (MiB) | DB (MiB) | CPU busy / other (%) |\n");
        out.append("|---:|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (int i = 0; i < slots.length; i++) {
            Slot s = slots[i];
            long[] a = sorted(s.acceptNanos);
            long[] p = sorted(s.publishMicros);
            long[] w = sorted(s.webhookNanos);
            String part = (layout.end(i) <= layout.warmup() ? "W" : "") + (layout.inFirst(i) ? "F" : "") + (layout.inLast(i) ? "L" : "");
            out.append("| ").append(layout.end(i)).append(" | ").append(part).append(" | ").append(s.offered).append(" | ").append(s.accepted())
                    .append(" | ").append(s.answeredOther()).append(" | ").append(s.dropped)
                    .append(" | ").append(ms(pct(a, 0.5))).append(" / ").append(ms(pct(a, 0.99))).append(" / ").append(a.length == 0 ? "-" : ms(a[a.length - 1]))
                    .append(" | ").append(p.length == 0 ? "-" : fmtMs(pct(p, 0.5) / 1e3) + " / " + fmtMs(pct(p, 0.99) / 1e3))
                    .append(" | ").append(s.published).append(" | ").append(webhooks ? String.valueOf(s.webhooks) : "-")
                    .append(" | ").append(w.length == 0 ? "-" : ms(pct(w, 0.99)))
                    .append(" | ").append(s.inFlight < 0 ? "-" : s.inFlight).append(" | ").append(s.outbox.isEmpty() ? "-" : fmt0(sum(s.outbox)))
                    .append(" | ").append(s.lag.isEmpty() ? "-" : fmt0(sum(s.lag)))
                    .append(" | ").append(mib(s.heapAfterGc.isEmpty() ? -1 : sum(s.heapAfterGc))).append(s.forcedGc ? "*" : "")
                    .append(" | ").append(mib(s.rss.isEmpty() ? -1 : sum(s.rss))).append(" | ").append(mib(s.dbBytes))
                    .append(" | ").append(fmt0(s.cpuBusy)).append(" / ").append(fmt0(s.cpuOther)).append(s.note.isEmpty() ? "" : " (" + s.note + ")")
                    .append(" |\n");
        }
        out.append('\n');
        perProcess(out, "Heap after the last major GC per JVM (MiB; * = forced just before)", concat(SERVICES, KAFKA), s -> s.heapAfterGc, true);
        perProcess(out, "Heap used at the reading per JVM (MiB)", SERVICES, s -> s.heapUsed, false);
        perProcess(out, "RSS per process (MiB)", concat(SERVICES, KAFKA), s -> s.rss, false);
        perProcess(out, "Of which file-backed (RssFile: mapped files, reclaimable; MiB)", concat(SERVICES, KAFKA), s -> s.rssFile, false);
        String[] dbs = outboxDbs.keySet().toArray(new String[0]);
        perCount(out, "Outbox backlog per database (unpublished rows)", dbs, s -> s.outbox);
        perCount(out, "Kafka consumer lag per service (records)", SERVICES, s -> s.lag);

        out.append("## Reproduce\n\n```bash\n").append(opt("command", "bench/soak.sh")).append("\n```\n\nSee bench/README.md, section \"Soak\".\n");
        return out.toString();
    }

    String gcTimes() {
        List<String> times = new ArrayList<>();
        for (int i = 0; i < slots.length; i++) {
            if (forceGcAt(layout.end(i))) {
                times.add(String.valueOf(layout.end(i)));
            }
        }
        return String.join(", ", times);
    }

    void perProcess(StringBuilder out, String title, String[] names, java.util.function.Function<Slot, Map<String, Long>> f, boolean markGc) {
        out.append("### ").append(title).append("\n\n| t (s) |");
        for (String n : names) {
            out.append(' ').append(n).append(" |");
        }
        out.append("\n|---:|").append("---:|".repeat(names.length)).append('\n');
        for (int i = 0; i < slots.length; i++) {
            out.append("| ").append(layout.end(i)).append(markGc && slots[i].forcedGc ? "*" : "").append(" |");
            for (String n : names) {
                Long v = f.apply(slots[i]).get(n);
                out.append(' ').append(v == null ? "-" : String.format(Locale.ROOT, "%.1f", v / 1048576.0)).append(" |");
            }
            out.append('\n');
        }
        out.append('\n');
    }

    void perCount(StringBuilder out, String title, String[] names, java.util.function.Function<Slot, Map<String, Long>> f) {
        out.append("### ").append(title).append("\n\n| t (s) |");
        for (String n : names) {
            out.append(' ').append(n).append(" |");
        }
        out.append("\n|---:|").append("---:|".repeat(names.length)).append('\n');
        for (int i = 0; i < slots.length; i++) {
            out.append("| ").append(layout.end(i)).append(" |");
            for (String n : names) {
                Long v = f.apply(slots[i]).get(n);
                out.append(' ').append(v == null ? "-" : v.toString()).append(" |");
            }
            out.append('\n');
        }
        out.append('\n');
    }

    double avg(ToDoubleFunction<Slot> f) {
        return Arrays.stream(slots).mapToDouble(f).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    double maxOf(ToDoubleFunction<Slot> f) {
        return Arrays.stream(slots).mapToDouble(f).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }

    static String fmt1(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    // ---------------------------------------------------------------- self-test of the verdict

    /**
     * Feeds the verdict made-up runs: a flat one must pass every check, and each kind of drift (heap, RSS, outbox, lag,
     * p99, a lost post, an error, a missing reading) must fail its own check. {@code bench/soak.sh --self-test}.
     */
    static void selfTest() {
        Layout layout = Layout.of(30, 120, 300, 1800, 12);
        int failures = 0;
        failures += expect("flat run", layout, (i, s) -> { }, null, true);
        failures += expect("heap +20% over the run (posts-service)", layout, (i, s) -> s.heapAfterGc.put("posts-service", (long) (100e6 * (1 + 0.2 * i / 60.0))),
                "heap after forced GC, posts-service", false);
        failures += expect("broker heap +30% in the last window", layout, (i, s) -> s.heapAfterGc.put(KAFKA, i > 40 ? 120_000_000L : 90_000_000L),
                "heap after forced GC, kafka", false);
        failures += expectEqual("GC.heap_info, Serial (young + tenured; not Metaspace)", (1024L + 46976L) << 10, heapUsedBytes(
                " def new generation   total 39296K, used 1024K [0x00000000e0000000, 0x00000000e2aa0000)\n"
                        + "  eden space 34944K,   2% used\n tenured generation   total 87424K, used 46976K [0x00000000e2aa0000)\n"
                        + " Metaspace       used 60000K, committed 61000K, reserved 1114112K\n"));
        failures += expectEqual("GC.heap_info, G1", 81920L << 10, heapUsedBytes(" garbage-first heap   total 262144K, used 81920K [0x0000000700000000)\n"));
        failures += expectEqual("GC.heap_info, nothing recognisable", -1L, heapUsedBytes("Could not find any processes"));
        failures += expectEqual("ramp: post 0 due at once", 0, Math.round(dueSeconds(0, 12, 180) * 1000));
        failures += expectEqual("ramp: the ramp's posts (0.1 + 1) / 2 x 12/s x 180 s = 1188 end at 180 s", 180_000, Math.round(dueSeconds(1188, 12, 180) * 1000));
        failures += expectEqual("ramp: then the full rate", 181_000, Math.round(dueSeconds(1200, 12, 180) * 1000));
        failures += expectEqual("ramp: at 60 s, 1.2 x 60 + 10.8 x 3600 / 360 = 180 posts", 60_000, Math.round(dueSeconds(180, 12, 180) * 1000));
        failures += expectEqual("no ramp: k / rate", 100_000, Math.round(dueSeconds(1200, 12, 0) * 1000));
        failures += expect("heap +3 MiB (under the floor)", layout, (i, s) -> s.heapAfterGc.put("api-gateway", 30_000_000L + (i > 40 ? 3L << 20 : 0)),
                "heap after forced GC, api-gateway", true);
        failures += expect("RSS +100 MiB (kafka)", layout, (i, s) -> s.rss.put(KAFKA, (400L << 20) + (i > 40 ? 100L << 20 : 0)), "RSS, kafka", false);
        failures += expect("outbox growing", layout, (i, s) -> s.outbox.put("herald_posts", (long) i * 3), "outbox backlog", false);
        failures += expect("lag spike in the last window", layout, (i, s) -> s.lag.put("delivery-worker", i == 58 ? 500L : 0L), "Kafka consumer lag", false);
        failures += expect("lag not exposed", layout, (i, s) -> s.lag.clear(), "Kafka consumer lag", null);
        failures += expect("p99 doubles", layout, (i, s) -> {
            if (i >= 50) {
                s.acceptNanos.values[s.acceptNanos.size - 1] = 400_000_000L;
                s.acceptNanos.values[s.acceptNanos.size - 2] = 400_000_000L;
                s.acceptNanos.values[s.acceptNanos.size - 3] = 400_000_000L;
                s.acceptNanos.values[s.acceptNanos.size - 4] = 400_000_000L;
            }
        }, "p99 acceptance", false);
        failures += expect("no forced GC readings", layout, (i, s) -> s.forcedGc = false, "heap after forced GC", null);
        failures += expect("an error answer", layout, (i, s) -> {
            if (i == 10) {
                s.others.put("500 internal_error", 1L);
            }
        }, "errors", false);
        failures += expect("429s (documented) only", layout, (i, s) -> {
            if (i == 10) {
                s.others.put("429 rate_limit_exceeded", 1L);
            }
        }, "errors", true);
        failures += expect("a lost post", layout, null, "posts lost", false);
        failures += expect("publishing slows down", layout, (i, s) -> {
            if (i >= 50) {
                for (int k = 0; k < s.publishMicros.size; k++) {
                    s.publishMicros.values[k] *= 2;
                }
            }
        }, "p99 accepted -> published", false);
        failures += expect("a missing webhook", layout, null, "final posts without a webhook", false);
        failures += expect("dropped posts", layout, (i, s) -> {
            if (i == 30) {
                s.offered += 200;
            }
        }, "posts accepted of those offered", false);
        if (failures > 0) {
            System.out.println("self-test: " + failures + " case(s) FAILED");
            System.exit(1);
        }
        System.out.println("self-test: every case as expected");
    }

    static int expectEqual(String name, long want, long got) {
        System.out.println("self-test: " + name + (want == got ? ": ok" : ": WRONG, got " + got + ", expected " + want));
        return want == got ? 0 : 1;
    }

    interface Shape {
        void apply(int i, Slot s);
    }

    /** Builds a flat run, applies the shape to every sample, checks the named check's outcome (null = not measured). */
    static int expect(String name, Layout layout, Shape shape, String check, Boolean expected) {
        Slot[] slots = new Slot[layout.samples()];
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < slots.length; i++) {
            Slot s = slots[i] = new Slot();
            s.read = true;
            s.forcedGc = i % 10 == 3 || i == slots.length - 1;
            for (String service : SERVICES) {
                s.heapAfterGc.put(service, 60_000_000L + random.nextInt(1_000_000));
                s.heapUsed.put(service, 120_000_000L);
                s.rss.put(service, 300_000_000L + random.nextInt(4_000_000));
                s.lag.put(service, (long) random.nextInt(5));
            }
            s.rss.put(KAFKA, 400_000_000L);
            s.heapAfterGc.put(KAFKA, 90_000_000L + random.nextInt(1_000_000));
            s.outbox.put("herald_posts", (long) random.nextInt(4));
            s.inFlight = random.nextInt(6);
            s.offered = 360;
            for (int k = 0; k < 360; k++) {
                s.acceptNanos.add(20_000_000L + random.nextInt(30_000_000));
                s.publishMicros.add(150_000L + random.nextInt(100_000));
                s.webhookNanos.add(300_000_000L + random.nextInt(100_000_000));
            }
            if (shape != null) {
                shape.apply(i, s);
            }
        }
        Totals totals = new Totals(360L * slots.length, 360L * slots.length, Map.of("published", 360L * slots.length),
                name.equals("a lost post") ? 1 : 0, List.of(), name.equals("a missing webhook") ? 1 : 0, List.of(), 0);
        List<Check> checks = verdict(layout, slots, totals, true);
        int wrong = 0;
        int targets = 0;
        StringBuilder why = new StringBuilder();
        for (Check c : checks) {
            boolean target = check != null && c.what().startsWith(check);
            targets += target ? 1 : 0;
            Boolean want = target ? expected : Boolean.TRUE;
            if (!java.util.Objects.equals(want, c.ok())) {
                wrong++;
                why.append("\n    ").append(c.what()).append(": ").append(c.first()).append(" -> ").append(c.last()).append(", got ")
                        .append(c.ok()).append(", expected ").append(want);
            }
        }
        if (check != null && targets == 0) {
            wrong++;
            why.append("\n    no check named ").append(check);
        }
        System.out.println("self-test: " + name + (wrong == 0 ? ": ok" : ": WRONG" + why));
        return wrong == 0 ? 0 : 1;
    }
}
