import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Webhook delivery benchmark, run by bench/webhooks-throughput.sh against a suite it started (compiled with
 * bench/support, then {@code java -cp DIR:<kafka-clients, slf4j-api> WebhooksBench --name=value ...}). One class over
 * the usual 300 lines: the program reads in the order of its run (setup, phases, report), and no other program uses
 * its parts. See bench/README.md, section "Webhook deliveries".
 *
 * <p>It measures webhooks-service alone: the posts pipeline is far too slow to feed it (about 57 posts/s on the
 * benchmark machine), so this JVM plays posts-service's outbox relay and publishes {@code post.finalized} events
 * straight to Kafka (same topic, key = post id, value = the JSON of common's {@code PostFinalizedEvent} in the text
 * form PostgreSQL's jsonb gives the relay, {@code acks=all}, idempotence, {@code linger.ms=1}, no headers) for
 * workspaces whose endpoints were registered through the public API ({@code POST /api/v1/webhooks} via the
 * gateway). The endpoints point at receivers in this JVM, one port per endpoint (webhooks-service's HTTP client
 * pools connections per receiver address, as it would for distinct customers), which answer 200 at once.
 *
 * <p>Latency of a delivery = the time its receiver finished reading the request body minus the time this JVM
 * called {@code send} for the event's record ({@code System.nanoTime} in both places, one JVM). Every first
 * receipt of an (event, endpoint) pair is kept, so percentiles are exact; later receipts of the same pair count as
 * duplicates. Events are offered open loop (each at its due time, whatever happened to the earlier ones).
 */
public class WebhooksBench extends BenchSupport {
    static {
        CpuSnapshot.countJvmThreads = true; // the report shows the JIT and GC threads' share
    }

    // ---------------------------------------------------------------- configuration

    public static void main(String[] args) throws Exception {
        parseOptions(args);
        WebhooksBench bench = new WebhooksBench();
        try {
            bench.run();
        } finally {
            bench.close();
        }
        System.exit(0);
    }

    static final String TOPIC = "post.finalized";
    static final String[] EVENT_TYPES = {"post.published", "post.partially_failed", "post.failed", "post.canceled"};

    final Path state = Path.of(opt("state", ".herald"));
    final int gatewayPort = intOpt("gateway-port", 8080);
    final int postgresPort = intOpt("postgres-port", 54329);
    final int kafkaPort = intOpt("kafka-port", 19092);
    final int receiverBasePort = intOpt("receiver-port", 18300);
    final int workspaceCount = intOpt("workspaces", 8);
    final int perWorkspace = intOpt("endpoints-per-workspace", 1);
    final int endpointCount = workspaceCount * perWorkspace;
    final List<Integer> rates = Arrays.stream(opt("rates", "500,1000,2000,3000").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).map(Integer::parseInt).toList();
    final int warmupSeconds = intOpt("warmup", 60);
    final int warmupRate = intOpt("warmup-rate", 1000);
    final int durationSeconds = intOpt("duration", 30);
    final int drainTimeoutSeconds = intOpt("drain-timeout", 120);
    final int maxDeliveries = intOpt("max-deliveries", 60000);
    final double keepUp = Double.parseDouble(opt("keep-up", "0.9"));
    final int verifyEvery = Math.max(1, intOpt("verify-every", 10));
    final int clockTicks = intOpt("clk-tck", 100);
    final int waitIdleSeconds = intOpt("wait-idle", 60);
    final long targetRate = 2000;
    final long targetP99Nanos = 250_000_000L;
    final int runId = new java.security.SecureRandom().nextInt() & 0x7fffffff;
    final String runHex = String.format("%08x", runId);

    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final StringBuilder notes = new StringBuilder();
    final List<Receiver> receivers = new ArrayList<>();
    final List<Phase> phases = new ArrayList<>();
    /** webhook-id (evt_ + 24 hex, derived from the source event id as webhooks-service does) -> phase << 32 | event. */
    final ConcurrentHashMap<String, Long> byWebhookId = new ConcurrentHashMap<>();
    final AtomicLong unknownDeliveries = new AtomicLong();
    final AtomicLong malformedRequests = new AtomicLong();
    final long nanoBase = System.nanoTime();
    final Instant wallBase = Instant.now();
    KafkaProducer<String, String> producer;
    Pg webhooksDb;
    Endpoint[] endpoints;
    String[] workspaceIds;
    String idleReport = "not checked";
    String postgresSettings = "-";
    String sanity = "-";
    String setupReport = "-";
    String skipped = "";

    record Endpoint(int index, int workspace, int local, int port, String id, byte[] secret, String url) {
    }

    void close() {
        receivers.forEach(Receiver::close);
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (webhooksDb != null) {
            webhooksDb.close();
        }
    }

    void run() throws Exception {
        Properties credentials = load(state.resolve("credentials"));
        String adminToken = credentials.getProperty("HERALD_ADMIN_TOKEN");
        String gateway = "http://127.0.0.1:" + gatewayPort;
        webhooksDb = Pg.connect("127.0.0.1", postgresPort, "postgres", "herald_webhooks", "webhooks-bench", 120_000);
        postgresSettings = webhooksDb.query("select current_setting('server_version') || ', synchronous_commit ' "
                + "|| current_setting('synchronous_commit') || ', fsync ' || current_setting('fsync') || ', shared_buffers ' "
                + "|| current_setting('shared_buffers') || ', max_connections ' || current_setting('max_connections')").get(0)[0];
        log("PostgreSQL " + postgresSettings);

        // ---- receivers first (endpoints are created pointing at them), then workspaces, keys, endpoints
        for (int j = 0; j < endpointCount; j++) {
            receivers.add(new Receiver(j, receiverBasePort + j));
        }
        setup(gateway, adminToken);

        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "webhooks-bench");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(p);
        int partitions = producer.partitionsFor(TOPIC).size();
        log("topic " + TOPIC + ": " + partitions + " partitions");

        // ---- sanity: one event per workspace, every delivery's signature verified
        Phase probe = newPhase("sanity", 0, workspaceCount, true);
        probe.verifyAll = true;
        runPhase(probe, Math.max(1, workspaceCount), 60);
        if (probe.distinctDelivered() != probe.expected() || probe.badSignatures.get() > 0 || probe.verified.get() == 0) {
            throw new IllegalStateException("sanity check failed: " + probe.distinctDelivered() + " of " + probe.expected()
                    + " deliveries arrived within 60 s, " + probe.verified.get() + " signatures verified, "
                    + probe.badSignatures.get() + " did not verify");
        }
        long[] ps = probe.sortedLatencies();
        sanity = String.format(Locale.ROOT, "%d events (one per workspace): %d of %d deliveries within %.1f s, every signature "
                + "verified (%d), latency p50 %s ms, max %s ms (cold JVMs)", probe.produced, probe.distinctDelivered(),
                probe.expected(), (probe.lastReceipt() - probe.startNanos) / 1e9, probe.verified.get(), ms(pct(ps, 0.5)), ms(pct(ps, 1.0)));
        log("sanity: " + sanity);

        idleReport = CpuSnapshot.waitForQuietMachine(state, waitIdleSeconds, notes, "absolute numbers are pessimistic and noisy.");
        log("machine: " + idleReport);

        // ---- warm-up (JIT), then the offered rates, then the maximum
        Phase warm = newPhase("warm-up", warmupRate, (long) warmupRate * warmupSeconds / perWorkspace, false);
        runPhase(warm, warmupRate / (double) perWorkspace, drainTimeoutSeconds);
        log("  " + warm.summary());
        warmupReport = warm.summary();

        List<Phase> measured = new ArrayList<>();
        for (int i = 0; i < rates.size(); i++) {
            int rate = rates.get(i);
            Phase ph = newPhase("open loop, " + rate + " deliveries/s offered", rate, (long) rate * durationSeconds / perWorkspace, false);
            runPhase(ph, rate / (double) perWorkspace, drainTimeoutSeconds);
            log("  " + ph.summary());
            measured.add(ph);
            if (ph.deliveredDuringLoadRate() < keepUp * rate) {
                List<Integer> rest = rates.subList(i + 1, rates.size());
                if (!rest.isEmpty()) {
                    skipped = rest.stream().map(String::valueOf).collect(Collectors.joining(", "));
                    notes.append("- ").append(ph.name).append(" did not keep up (").append(fmt0(ph.deliveredDuringLoadRate()))
                            .append(" deliveries/s during the load, under ").append(fmt0(keepUp * 100)).append("% of the offered rate), ")
                            .append("so the higher rates (").append(skipped).append(") were skipped; the maximum phase follows.\n");
                }
                break;
            }
        }
        Phase max = null;
        if (maxDeliveries > 0) {
            max = newPhase("maximum: " + maxDeliveries + " deliveries offered at once", 0, Math.max(1, maxDeliveries / perWorkspace), false);
            max.burst = true;
            runPhase(max, 0, Math.max(drainTimeoutSeconds, 300));
            log("  " + max.summary());
            measured.add(max);
        }

        writeResults(report(measured, max));
    }

    String warmupReport = "-";

    // ---------------------------------------------------------------- setup through the admin and public APIs

    void setup(String gateway, String adminToken) throws Exception {
        long t0 = System.nanoTime();
        endpoints = new Endpoint[endpointCount];
        workspaceIds = new String[workspaceCount];
        for (int w = 0; w < workspaceCount; w++) {
            Answer ws = send("POST", gateway + "/admin/v1/workspaces", adminToken,
                    "{\"name\":\"webhooks bench " + runHex + " " + w + "\"}");
            String workspaceId = require(ws, 201, "\"id\":\"(ws_[0-9a-zA-Z]+)\"", "create workspace");
            Answer key = send("POST", gateway + "/admin/v1/workspaces/" + workspaceId + "/api-keys", adminToken, "{\"mode\":\"test\"}");
            String apiKey = require(key, 201, "\"secret\":\"(sk_test_[A-Za-z0-9]+)\"", "create test key");
            workspaceIds[w] = workspaceId;
            for (int e = 0; e < perWorkspace; e++) {
                int j = w * perWorkspace + e;
                int port = receiverBasePort + j;
                String url = "http://127.0.0.1:" + port + "/hooks/" + w + "/" + e;
                Answer created = send("POST", gateway + "/api/v1/webhooks", apiKey, "{\"url\":\"" + url
                        + "\",\"description\":\"webhooks bench " + runHex + "\",\"events\":[\"" + String.join("\",\"", EVENT_TYPES) + "\"]}");
                String id = require(created, 201, "\"id\":\"(whe_[0-9a-f]+)\"", "POST /api/v1/webhooks");
                Matcher secret = Pattern.compile("\"secret\":\"(whsec_[A-Za-z0-9+/=]+)\"").matcher(created.body);
                if (!secret.find()) {
                    throw new IllegalStateException("POST /api/v1/webhooks answered no secret: " + abbreviate(created.body, 300));
                }
                endpoints[j] = new Endpoint(j, w, e, port, id, secret.group(1).getBytes(StandardCharsets.UTF_8), url);
            }
        }
        setupReport = String.format(Locale.ROOT, "%d workspaces (`POST /admin/v1/workspaces`, a test key from "
                + "`POST /admin/v1/workspaces/{id}/api-keys`), %d endpoint%s each registered with `POST /api/v1/webhooks` through "
                + "the gateway with the workspace's key (every event type subscribed), %d endpoints in all, each on its own "
                + "receiver port (127.0.0.1:%d-%d); %.1f s", workspaceCount, perWorkspace, perWorkspace == 1 ? "" : "s",
                endpointCount, receiverBasePort, receiverBasePort + endpointCount - 1, (System.nanoTime() - t0) / 1e9);
        log("setup: " + setupReport);
    }

    // ---------------------------------------------------------------- phases

    final class Phase {
        final int index;
        final String name;
        final double offered;
        final long planned;
        final long[] sentNanos;
        final long[] dueNanos;
        final long[] receivedNanos;
        final AtomicIntegerArray receipts;
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong verified = new AtomicLong();
        final AtomicLong badSignatures = new AtomicLong();
        final AtomicLong produceErrors = new AtomicLong();
        volatile long produced;
        boolean verifyAll;
        boolean burst;
        long startNanos;
        long loadEndNanos;
        long drainEndNanos;
        boolean drained;
        Instant startedAt;
        CpuSnapshot cpuStart;
        /** CPU from the phase's start to the end of its drain. */
        CpuUse all = CpuUse.NONE;
        String loadAverage = "-";
        Db db;

        Phase(int index, String name, double offered, long planned) {
            this.index = index;
            this.name = name;
            this.offered = offered;
            this.planned = planned;
            this.sentNanos = new long[(int) planned];
            this.dueNanos = new long[(int) planned];
            this.receivedNanos = new long[(int) planned * perWorkspace];
            this.receipts = new AtomicIntegerArray((int) planned * perWorkspace);
        }

        long expected() {
            return produced * perWorkspace;
        }

        long distinctDelivered() {
            long n = 0;
            int slots = (int) (produced * perWorkspace);
            for (int i = 0; i < slots; i++) {
                if (receivedNanos[i] != 0) {
                    n++;
                }
            }
            return n;
        }

        long deliveredBy(long nanos) {
            long n = 0;
            int slots = (int) (produced * perWorkspace);
            for (int i = 0; i < slots; i++) {
                long r = receivedNanos[i];
                if (r != 0 && r - nanos <= 0) {
                    n++;
                }
            }
            return n;
        }

        long lastReceipt() {
            long last = startNanos;
            int slots = (int) (produced * perWorkspace);
            for (int i = 0; i < slots; i++) {
                long r = receivedNanos[i];
                if (r != 0 && r - last > 0) {
                    last = r;
                }
            }
            return last;
        }

        double loadSeconds() {
            return (loadEndNanos - startNanos) / 1e9;
        }

        /** Deliveries received while events were being offered, per second of that time. */
        double deliveredDuringLoadRate() {
            return deliveredBy(loadEndNanos) / Math.max(1e-9, loadSeconds());
        }

        /** Every delivery of the phase over the time from the first send to the last receipt. */
        double overallRate() {
            long delivered = distinctDelivered();
            return delivered / Math.max(1e-9, (lastReceipt() - startNanos) / 1e9);
        }

        long[] sortedLatencies() {
            int slots = (int) (produced * perWorkspace);
            long[] out = new long[slots];
            int k = 0;
            for (int i = 0; i < slots; i++) {
                long r = receivedNanos[i];
                if (r != 0) {
                    out[k++] = r - sentNanos[i / perWorkspace];
                }
            }
            long[] a = Arrays.copyOf(out, k);
            Arrays.sort(a);
            return a;
        }

        long[] sortedReceipts() {
            int slots = (int) (produced * perWorkspace);
            long[] a = new long[slots];
            int k = 0;
            for (int i = 0; i < slots; i++) {
                if (receivedNanos[i] != 0) {
                    a[k++] = receivedNanos[i];
                }
            }
            a = Arrays.copyOf(a, k);
            Arrays.sort(a);
            return a;
        }

        /** How late the producer called send after each event's due time (open loop). */
        long[] sortedLateness() {
            long[] a = new long[(int) produced];
            for (int i = 0; i < produced; i++) {
                a[i] = Math.max(0, sentNanos[i] - dueNanos[i]);
            }
            Arrays.sort(a);
            return a;
        }

        /** Middle 80% of the receipts: deliveries between the 10th and the 90th percentile receipt, per second. */
        double middleRate() {
            long[] r = sortedReceipts();
            if (r.length < 20) {
                return Double.NaN;
            }
            int lo = r.length / 10;
            int hi = r.length - 1 - r.length / 10;
            return (hi - lo) / Math.max(1e-9, (r[hi] - r[lo]) / 1e9);
        }

        String perFive() {
            long[] r = sortedReceipts();
            long end = burst ? lastReceipt() : loadEndNanos;
            List<String> parts = new ArrayList<>();
            int k = 0;
            for (long from = startNanos; from + 5_000_000_000L <= end + 1_000_000_000L; from += 5_000_000_000L) {
                long to = from + 5_000_000_000L;
                long count = 0;
                while (k < r.length && r[k] < to) {
                    if (r[k] >= from) {
                        count++;
                    }
                    k++;
                }
                parts.add(fmt0(count / 5.0));
            }
            return String.join(", ", parts);
        }

        String summary() {
            long[] s = sortedLatencies();
            return String.format(Locale.ROOT, "%s: %d events produced in %.1f s, %d of %d deliveries (%d missing, %d duplicates), "
                    + "%.0f deliveries/s during the load, %.0f overall, p50 %s ms, p99 %s ms, max %s ms, drain %.2f s, "
                    + "CPU busy %s (other processes %s)",
                    name, produced, loadSeconds(), distinctDelivered(), expected(), expected() - distinctDelivered(), duplicates.get(),
                    deliveredDuringLoadRate(), overallRate(), ms(pct(s, 0.5)), ms(pct(s, 0.99)), ms(pct(s, 1.0)),
                    (drainEndNanos - loadEndNanos) / 1e9, share(all.busy(), all.total()), share(all.ticks().getOrDefault("other", 0L), all.total()));
        }
    }

    Phase newPhase(String name, double offered, long events, boolean quiet) {
        Phase phase = new Phase(phases.size(), name, offered, events);
        phases.add(phase);
        return phase;
    }

    /**
     * Offers the phase's events open loop at {@code eventRate} per second (0: all at once, as fast as the producer
     * takes them), then waits up to {@code drainSeconds} for every delivery.
     */
    void runPhase(Phase phase, double eventRate, int drainSeconds) throws Exception {
        log(phase.name + ": " + phase.planned + " events x " + perWorkspace + " endpoint(s)"
                + (eventRate > 0 ? " at " + fmt0(eventRate) + " events/s" : " at once"));
        phase.loadAverage = loadAverage();
        phase.cpuStart = CpuSnapshot.take(state);
        phase.startedAt = Instant.now();
        long start = System.nanoTime();
        phase.startNanos = start;
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        String prefix = "evt_" + runHex + String.format("%02x", phase.index);
        for (int n = 0; n < phase.planned; n++) {
            long due = eventRate > 0 ? start + (long) (n * 1e9 / eventRate) : start;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int w = n % workspaceCount;
            String sourceId = prefix + String.format("%014x", n);
            String postId = "pst_" + runHex + String.format("%02x", phase.index) + String.format("%014x", n);
            String webhookId = "evt_" + HexFormat.of().formatHex(sha.digest(("herald-webhook-event\n" + sourceId)
                    .getBytes(StandardCharsets.UTF_8)), 0, 12);
            String payload = eventJson(sourceId, w, postId, n);
            byWebhookId.put(webhookId, ((long) phase.index << 32) | n);
            phase.dueNanos[n] = due;
            phase.sentNanos[n] = System.nanoTime();
            producer.send(new ProducerRecord<>(TOPIC, postId, payload), (metadata, error) -> {
                if (error != null) {
                    phase.produceErrors.incrementAndGet();
                }
            });
            phase.produced = n + 1;
        }
        phase.loadEndNanos = System.nanoTime();
        producer.flush();
        long deadline = System.nanoTime() + drainSeconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (phase.distinctDelivered() >= phase.expected()) {
                phase.drained = true;
                break;
            }
            Thread.sleep(50);
        }
        phase.drainEndNanos = phase.drained ? Math.max(phase.lastReceipt(), phase.loadEndNanos) : System.nanoTime();
        // a late duplicate still counts if it comes within a second
        Thread.sleep(phase.burst || phase.verifyAll ? 0 : 1000);
        CpuSnapshot atEnd = CpuSnapshot.take(state);
        phase.all = CpuUse.between(phase.cpuStart, atEnd);
        if (!phase.drained) {
            log("  " + phase.name + ": " + (phase.expected() - phase.distinctDelivered()) + " deliveries still missing after "
                    + drainSeconds + " s");
        }
        phase.db = dbFacts(phase, prefix);
    }

    /** {@code post.finalized} as posts-service's relay publishes it: PostFinalizedEvent as jsonb::text (keys by length, then bytes). */
    String eventJson(String eventId, int workspace, String postId, long n) {
        String now = Instant.now().toString();
        String account = "acc_" + runHex + String.format("%016x", (long) workspace);
        String provider = "sbx_" + postId.substring(4);
        String target = "{\"url\": \"https://sandbox.herald.invalid/linkedin/" + provider + "\", \"status\": \"published\", "
                + "\"attempts\": 1, \"platform\": \"linkedin\", \"account_id\": \"" + account + "\", \"profile_id\": null, "
                + "\"completed_at\": \"" + now + "\", \"provider_post_id\": \"" + provider + "\"}";
        String post = "{\"id\": \"" + postId + "\", \"mode\": \"test\", \"text\": \"Webhooks benchmark " + runHex + ", post " + n
                + ": one LinkedIn sandbox target in test mode.\", \"media\": null, \"status\": \"published\", \"targets\": [" + target
                + "], \"created_at\": \"" + now + "\", \"updated_at\": \"" + now + "\", \"scheduled_at\": null, \"platform_options\": {}}";
        return "{\"mode\": \"test\", \"post\": " + post + ", \"type\": \"post.published\", \"event_id\": \"" + eventId
                + "\", \"occurred_at\": \"" + now + "\", \"workspace_id\": \"" + workspaceIds[workspace] + "\"}";
    }

    // ---------------------------------------------------------------- what webhooks-service recorded

    /** Per delivery of the phase, from herald_webhooks: when it was created (intake) and delivered, its status and attempts. */
    record Db(long rows, Map<String, Long> statuses, long retried, int maxAttempts, long[] intakeMicros, long[] sendMicros,
              String error) {
    }

    Db dbFacts(Phase phase, String prefix) {
        try {
            List<String[]> rows = webhooksDb.query("select e.source_event_id, d.status, d.attempts, "
                    + "(extract(epoch from d.created_at) * 1000000)::bigint, (extract(epoch from d.delivered_at) * 1000000)::bigint "
                    + "from deliveries d join events e on e.id = d.event_id where e.source_event_id like '" + prefix + "%'");
            Map<String, Long> statuses = new TreeMap<>();
            long retried = 0;
            int maxAttempts = 0;
            long[] intake = new long[rows.size()];
            long[] send = new long[rows.size()];
            int ki = 0;
            int ks = 0;
            long baseMicros = wallBase.getEpochSecond() * 1_000_000L + wallBase.getNano() / 1000;
            for (String[] r : rows) {
                statuses.merge(r[1], 1L, Long::sum);
                int attempts = Integer.parseInt(r[2]);
                maxAttempts = Math.max(maxAttempts, attempts);
                if (attempts > 1) {
                    retried++;
                }
                int n = (int) Long.parseLong(r[0].substring(prefix.length()), 16);
                if (n < phase.produced) {
                    long sentMicros = baseMicros + (phase.sentNanos[n] - nanoBase) / 1000;
                    long created = Long.parseLong(r[3]);
                    intake[ki++] = created - sentMicros;
                    if (r[4] != null) {
                        send[ks++] = Long.parseLong(r[4]) - created;
                    }
                }
            }
            intake = Arrays.copyOf(intake, ki);
            send = Arrays.copyOf(send, ks);
            Arrays.sort(intake);
            Arrays.sort(send);
            return new Db(rows.size(), statuses, retried, maxAttempts, intake, send, null);
        } catch (IOException | RuntimeException e) {
            return new Db(0, Map.of(), 0, 0, new long[0], new long[0], e.toString());
        }
    }

    // ---------------------------------------------------------------- receivers

    static final byte[] OK = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** One receiver per endpoint: a blocking HTTP/1.1 server, a thread per connection, 200 at once. */
    final class Receiver {
        final int endpoint;
        final ServerSocket server;
        final List<Socket> sockets = new ArrayList<>();
        final AtomicLong received = new AtomicLong();
        final AtomicLong connections = new AtomicLong();
        volatile boolean closed;

        Receiver(int endpoint, int port) throws IOException {
            this.endpoint = endpoint;
            this.server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
            Thread accept = new Thread(this::accept, "receiver-" + port);
            accept.setDaemon(true);
            accept.start();
        }

        void accept() {
            while (!closed) {
                try {
                    Socket s = server.accept();
                    connections.incrementAndGet();
                    synchronized (sockets) {
                        sockets.add(s);
                    }
                    Thread t = new Thread(() -> serve(s), "receiver-" + server.getLocalPort() + "-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    if (!closed) {
                        log("receiver " + server.getLocalPort() + ": " + e);
                    }
                }
            }
        }

        void serve(Socket s) {
            try (s) {
                s.setTcpNoDelay(true);
                InputStream in = new BufferedInputStream(s.getInputStream(), 16384);
                OutputStream out = s.getOutputStream();
                byte[] line = new byte[8192];
                while (true) {
                    int len = readLine(in, line);
                    if (len < 0) {
                        return;
                    }
                    if (len == 0) {
                        continue;
                    }
                    int contentLength = -1;
                    String id = null;
                    String timestamp = null;
                    String signature = null;
                    boolean chunked = false;
                    while ((len = readLine(in, line)) > 0) {
                        int colon = indexOf(line, len, (byte) ':');
                        if (colon < 0) {
                            continue;
                        }
                        String name = new String(line, 0, colon, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
                        String value = new String(line, colon + 1, len - colon - 1, StandardCharsets.US_ASCII).trim();
                        switch (name) {
                            case "content-length" -> contentLength = Integer.parseInt(value);
                            case "webhook-id" -> id = value;
                            case "webhook-timestamp" -> timestamp = value;
                            case "webhook-signature" -> signature = value;
                            case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                            default -> { }
                        }
                    }
                    if (len < 0) {
                        return;
                    }
                    if (chunked || contentLength < 0) {
                        malformedRequests.incrementAndGet();
                        return;
                    }
                    byte[] body = in.readNBytes(contentLength);
                    long at = System.nanoTime();
                    out.write(OK);
                    out.flush();
                    record(endpoint, id, timestamp, signature, body, at);
                }
            } catch (IOException e) {
                // the sender closed the connection
            }
        }

        void close() {
            closed = true;
            try {
                server.close();
            } catch (IOException ignored) {
                // closing
            }
            synchronized (sockets) {
                for (Socket s : sockets) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing
                    }
                }
            }
        }
    }

    static int readLine(InputStream in, byte[] buffer) throws IOException {
        int n = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return n == 0 ? -1 : n;
            }
            if (b == '\n') {
                return n > 0 && buffer[n - 1] == '\r' ? n - 1 : n;
            }
            if (n < buffer.length) {
                buffer[n++] = (byte) b;
            }
        }
    }

    static int indexOf(byte[] a, int len, byte b) {
        for (int i = 0; i < len; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    });

    void record(int endpoint, String id, String timestamp, String signature, byte[] body, long at) {
        Receiver receiver = receivers.get(endpoint);
        long count = receiver.received.incrementAndGet();
        Long packed = id == null ? null : byWebhookId.get(id);
        if (packed == null) {
            unknownDeliveries.incrementAndGet();
            return;
        }
        Phase phase = phases.get((int) (packed >>> 32));
        int n = (int) (long) packed;
        Endpoint ep = endpoints[endpoint];
        int slot = n * perWorkspace + ep.local();
        if (phase.receipts.incrementAndGet(slot) == 1) {
            phase.receivedNanos[slot] = at;
        } else {
            phase.duplicates.incrementAndGet();
        }
        if (phase.verifyAll || (count - 1) % verifyEvery == 0) {
            if (verify(ep, id, timestamp, signature, body)) {
                phase.verified.incrementAndGet();
            } else {
                phase.badSignatures.incrementAndGet();
            }
        }
    }

    /** The README's scheme: v1= + hex HMAC-SHA256 (key: the secret's UTF-8 bytes) of id.timestamp.body; 300 s tolerance. */
    static boolean verify(Endpoint ep, String id, String timestamp, String signature, byte[] body) {
        if (id == null || timestamp == null || signature == null) {
            return false;
        }
        try {
            long ts = Long.parseLong(timestamp);
            if (Math.abs(Instant.now().getEpochSecond() - ts) > 300) {
                return false;
            }
            Mac mac = MACS.get();
            mac.init(new SecretKeySpec(ep.secret(), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = HexFormat.of().formatHex(mac.doFinal(body)).getBytes(StandardCharsets.US_ASCII);
            for (String part : signature.split(" ")) {
                if (part.startsWith("v1=") && MessageDigest.isEqual(expected, part.substring(3).getBytes(StandardCharsets.US_ASCII))) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    // ---------------------------------------------------------------- the report

    String report(List<Phase> measured, Phase max) {
        StringBuilder out = new StringBuilder();
        out.append("# Webhook deliveries: deliveries/s to local receivers, event -> delivery latency\n\n");

        Phase atTarget = measured.stream().filter(p -> !p.burst && p.offered == targetRate).findFirst().orElse(null);
        Phase bestKept = measured.stream().filter(p -> !p.burst && p.drained && p.deliveredDuringLoadRate() >= keepUp * p.offered)
                .max((a, b) -> Double.compare(a.offered, b.offered)).orElse(null);
        out.append("| result | measured | target | verdict |\n|---|---:|---:|---|\n");
        if (atTarget != null) {
            double rate = atTarget.deliveredDuringLoadRate();
            boolean kept = atTarget.drained && rate >= 0.98 * targetRate && atTarget.expected() == atTarget.distinctDelivered();
            out.append("| deliveries/s while ").append(fmt0(targetRate)).append("/s were offered for ").append(durationSeconds)
                    .append(" s (received during the load; every delivery arrived: ").append(atTarget.drained ? "yes" : "**no**")
                    .append(", last one ").append(String.format(Locale.ROOT, "%.2f", (atTarget.drainEndNanos - atTarget.loadEndNanos) / 1e9))
                    .append(" s after the load) | ").append(fmt0(rate)).append(" | >= 2,000 | ").append(verdict(kept)).append(" |\n");
            long[] s = atTarget.sortedLatencies();
            out.append("| p99 event -> delivery latency at ").append(fmt0(targetRate)).append(" deliveries/s offered | ")
                    .append(ms(pct(s, 0.99))).append(" ms | < 250 ms | ")
                    .append(verdict(pct(s, 0.99) >= 0 && pct(s, 0.99) < targetP99Nanos && kept)).append(" |\n");
        } else {
            out.append("| deliveries/s at 2,000/s offered | not run | >= 2,000 | **not measured** (no 2000 in --rates, or skipped: ")
                    .append(skipped.isEmpty() ? "not asked" : "a lower rate did not keep up").append(") |\n");
            out.append("| p99 latency at 2,000/s offered | not run | < 250 ms | **not measured** |\n");
        }
        if (max != null) {
            out.append("| maximum deliveries/s (").append(maxDeliveries).append(" offered at once; middle 80% of receipts / first send to last receipt) | ")
                    .append(fmt0(max.middleRate())).append(" / ").append(fmt0(max.overallRate())).append(" | >= 2,000 | ")
                    .append(verdict(max.middleRate() >= targetRate && max.drained)).append(" |\n");
        }
        if (bestKept != null) {
            long[] s = bestKept.sortedLatencies();
            out.append("| highest offered rate kept up with (delivered during the load >= ").append(fmt0(keepUp * 100))
                    .append("% of offered, all delivered) | ").append(fmt0(bestKept.offered)).append(" /s, p99 ")
                    .append(ms(pct(s, 0.99))).append(" ms | | |\n");
        }
        out.append('\n');

        out.append("| setting | |\n|---|---|\n");
        row(out, "date (UTC)", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        row(out, "code measured", opt("source", "?"));
        row(out, "machine", opt("machine", "?"));
        row(out, "machine load", opt("quiet", "") + idleReport + "; during the measured phases (load + drain) other processes used "
                + measured.stream().map(p -> share(p.all.ticks().getOrDefault("other", 0L), p.all.total())).collect(Collectors.joining(", "))
                + " of the machine; 1/5/15-minute load average at each phase's start: "
                + measured.stream().map(p -> p.loadAverage).collect(Collectors.joining("; ")));
        row(out, "PostgreSQL", postgresSettings + " (the suite's embedded server)");
        row(out, "webhooks-service settings", opt("webhooks-env", "defaults"));
        row(out, "java (client)", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        row(out, "setup", setupReport);
        row(out, "events", "`post.finalized` records produced by this JVM straight to Kafka (posts-service's pipeline, about 57 posts/s "
                + "here, cannot feed 2,000/s): topic `" + TOPIC + "`, key = post id, value = common's `PostFinalizedEvent` as posts-service's "
                + "outbox relay sends it (jsonb text: `mode`, `post` with one published LinkedIn sandbox target, `type` `post.published`, "
                + "`event_id` unique per event, `occurred_at`, `workspace_id`; about " + eventJson("evt_" + "0".repeat(24), 0, "pst_" + "0".repeat(24), 0).length()
                + " bytes), no headers, `acks=all`, idempotence, `linger.ms=1`. Workspaces in turn (event n to workspace n mod "
                + workspaceCount + "); every endpoint of the workspace gets a delivery (fan-out " + perWorkspace + ")");
        row(out, "receivers", "in the bench JVM, one port per endpoint, a blocking HTTP/1.1 server with a thread per connection that reads "
                + "the request and answers `200` with an empty body at once; every " + verifyEvery + "th request per receiver (and every "
                + "request of the sanity check) has its `webhook-signature` verified (README scheme, 300 s tolerance)");
        row(out, "latency", "receipt (the receiver has read the whole body) minus the time this JVM called `send` for the event's record, "
                + "both `System.nanoTime` in one JVM; first receipt of each (event, endpoint) pair, exact percentiles. It includes the "
                + "producer's batching and Kafka, webhooks-service's consumer poll and intake transaction, the sender's claim and "
                + "the HTTP attempt, not the outcome write");
        row(out, "sanity check", sanity);
        row(out, "load", "warm-up: " + warmupRate + " deliveries/s offered for " + warmupSeconds + " s, then drained (" + warmupReport
                + "). Then " + durationSeconds + " s per offered rate, open loop (event n due at n / rate; the phase waits for "
                + "every delivery, at most " + drainTimeoutSeconds + " s, before the next), rates "
                + rates.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " deliveries/s"
                + (skipped.isEmpty() ? "" : " (" + skipped + " skipped)") + "; then " + maxDeliveries
                + " deliveries' events produced as fast as the producer takes them, and the time until the last is delivered");
        out.append('\n');

        out.append("## Deliveries and latency per phase\n\n");
        out.append("Delivered/s during the load: distinct deliveries received while the phase's events were being produced, per second "
                + "of that time. Drain: last receipt minus the end of the load. Missing: deliveries not received within the drain "
                + "timeout. Duplicates: receipts of an (event, endpoint) pair after its first.\n\n");
        out.append("| phase | events | deliveries expected | delivered | missing | duplicates | delivered/s during the load | delivered/s overall | "
                + "p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | drain s | delivered/s per 5 s |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Phase p : measured) {
            long[] s = p.sortedLatencies();
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %.2f | %s |\n",
                    p.burst ? "**" + p.name + "**" : p.name, p.produced, p.expected(), p.distinctDelivered(), p.expected() - p.distinctDelivered(),
                    p.duplicates.get(), p.burst ? "-" : fmt0(p.deliveredDuringLoadRate()), fmt0(p.overallRate()),
                    ms(pct(s, 0.5)), ms(pct(s, 0.9)), ms(pct(s, 0.99)), ms(pct(s, 0.999)), ms(pct(s, 1.0)),
                    (p.drainEndNanos - p.loadEndNanos) / 1e9, p.perFive()));
        }
        out.append('\n');
        if (max != null) {
            out.append(String.format(Locale.ROOT, "Maximum phase: %d events produced in %.2f s (the producer's own rate), the last delivery "
                    + "%.2f s after the first send; middle 80%% of receipts at %s deliveries/s. Latency there is queueing behind the "
                    + "backlog, not service time.\n\n", max.produced, max.loadSeconds(), (max.lastReceipt() - max.startNanos) / 1e9,
                    fmt0(max.middleRate())));
        }
        out.append("Producer lateness (open loop: `send` called after the event's due time; large values would mean the bench, not the "
                + "service, fell behind): ");
        out.append(measured.stream().filter(p -> !p.burst).map(p -> {
            long[] l = p.sortedLateness();
            return p.offered + "/s: p99 " + ms(pct(l, 0.99)) + " ms, max " + ms(pct(l, 1.0)) + " ms";
        }).collect(Collectors.joining("; "))).append(".\n\n");

        out.append("## Where the time goes (from webhooks-service's database)\n\n");
        out.append("Per delivery of the phase, from `herald_webhooks.deliveries`: *to intake* = `created_at` (the `now` webhooks-service "
                + "takes when its consumer starts storing the batch) minus the bench's send time (wall clock of the same machine); "
                + "*intake to answered* = `delivered_at` (the attempt's outcome time, right after the receiver's answer) minus "
                + "`created_at`: the intake transaction's commit, waiting to be claimed, the claim, signing and the HTTP exchange.\n\n");
        out.append("| phase | deliveries | statuses | retried (attempts > 1) | max attempts | to intake p50 / p99 ms | intake to answered p50 / p99 ms |\n");
        out.append("|---|---:|---|---:|---:|---:|---:|\n");
        for (Phase p : measured) {
            Db d = p.db;
            if (d == null || d.error() != null) {
                out.append("| ").append(p.name).append(" | - | ").append(d == null ? "not read" : d.error()).append(" | | | | |\n");
                continue;
            }
            out.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %d | %s / %s | %s / %s |\n", p.name, d.rows(),
                    d.statuses().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
                    d.retried(), d.maxAttempts(), micros(pctL(d.intakeMicros(), 0.5)), micros(pctL(d.intakeMicros(), 0.99)),
                    micros(pctL(d.sendMicros(), 0.5)), micros(pctL(d.sendMicros(), 0.99))));
        }
        out.append('\n');

        out.append("## CPU per delivery\n\n");
        out.append("CPU time (utime+stime from /proc) of each process tree per delivery received, over each phase's load and drain. "
                + "PostgreSQL counts every backend; `bench client` is this JVM (producer and receivers); `other` is everything else on "
                + "the machine. Two cores give 2,000,000 µs per second, so about 2,000,000 / (`all but other` per delivery) deliveries/s "
                + "is the CPU bound of this machine.\n\n");
        out.append("| process |");
        measured.forEach(p -> out.append(' ').append(p.name).append(" |"));
        out.append("\n|---|");
        measured.forEach(p -> out.append("---:|"));
        out.append('\n');
        TreeMap<String, Boolean> names = new TreeMap<>();
        measured.forEach(p -> p.all.ticks().keySet().forEach(k -> names.put(k, true)));
        for (String name : names.keySet()) {
            out.append("| ").append(name).append(" |");
            for (Phase p : measured) {
                out.append(' ').append(perDelivery(p.all.ticks().getOrDefault(name, 0L), p.distinctDelivered())).append(" |");
            }
            out.append('\n');
        }
        out.append("| **all but other** |");
        measured.forEach(p -> out.append(" **").append(perDelivery(sumButOther(p.all.ticks()), p.distinctDelivered())).append("** |"));
        out.append("\n| machine busy |");
        measured.forEach(p -> out.append(' ').append(share(p.all.busy(), p.all.total())).append(" |"));
        out.append("\n| of the suite's JVMs: JIT compiler threads |");
        measured.forEach(p -> out.append(' ').append(perDelivery(p.all.threads().getOrDefault(CpuSnapshot.JIT, 0L), p.distinctDelivered())).append(" |"));
        out.append("\n| of the suite's JVMs: GC and VM threads |");
        measured.forEach(p -> out.append(' ').append(perDelivery(p.all.threads().getOrDefault(CpuSnapshot.GC, 0L), p.distinctDelivered())).append(" |"));
        out.append("\n\nThe last two rows are part of the rows above (threads named `C1/C2 CompilerThread`, and `VM Thread` with "
                + "`-XX:+UseSerialGC`).\n\n");

        out.append("## Signatures and stray requests\n\n");
        long verified = measured.stream().mapToLong(p -> p.verified.get()).sum();
        long bad = measured.stream().mapToLong(p -> p.badSignatures.get()).sum();
        out.append(String.format(Locale.ROOT, "%d signatures verified in the measured phases, %d did not verify; %d requests carried a "
                + "`webhook-id` the bench never produced; %d requests could not be read (chunked or without a length); producer "
                + "errors: %d. Receiver connections opened: %d over %d receivers.\n\n", verified, bad, unknownDeliveries.get(),
                malformedRequests.get(), measured.stream().mapToLong(p -> p.produceErrors.get()).sum(),
                receivers.stream().mapToLong(r -> r.connections.get()).sum(), receivers.size()));
        if (bad > 0) {
            notes.append("- **").append(bad).append(" sampled signatures did not verify.**\n");
        }

        for (Phase p : measured) {
            if (p.all.total() > 0 && 100.0 * p.all.ticks().getOrDefault("other", 0L) / p.all.total() >= 10) {
                notes.append("- Other processes used ").append(share(p.all.ticks().getOrDefault("other", 0L), p.all.total()))
                        .append(" of the machine during ").append(p.name).append(": its numbers are distorted by unrelated work.\n");
            }
            if (!p.drained) {
                notes.append("- ").append(p.name).append(": ").append(p.expected() - p.distinctDelivered())
                        .append(" deliveries had not arrived when the drain timed out.\n");
            }
            if (p.duplicates.get() > 0) {
                notes.append("- ").append(p.name).append(": ").append(p.duplicates.get()).append(" duplicate receipts (at-least-once delivery: ")
                        .append("an attempt whose outcome was not written in time is sent again when its lease lapses).\n");
            }
        }
        if (notes.length() > 0) {
            out.append("## Notes\n\n").append(notes).append('\n');
        }
        return out.toString();
    }

    static long pctL(long[] sorted, double q) {
        return pct(sorted, q);
    }

    static String micros(long v) {
        return v == Long.MIN_VALUE ? "-" : String.format(Locale.ROOT, "%.1f", v / 1000.0);
    }

    String perDelivery(long ticks, long deliveries) {
        return deliveries == 0 ? "-" : String.format(Locale.ROOT, "%.0f", ticks * 1_000_000.0 / clockTicks / deliveries);
    }

    /** {@link BenchSupport#pct}, but Long.MIN_VALUE when there is none (what ms() and micros() show as "-"). */
    static long pct(long[] sorted, double q) {
        return sorted.length == 0 ? Long.MIN_VALUE : BenchSupport.pct(sorted, q);
    }

    static String ms(double nanos) {
        return nanos == Long.MIN_VALUE || Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1_000_000.0);
    }

    static String fmt0(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException | RuntimeException e) {
            return "-";
        }
    }

    // ---------------------------------------------------------------- setup calls

    Answer send(String method, String url, String bearer, String json) throws Exception {
        return send(http, Duration.ofSeconds(30), method, url, bearer, json, Map.of());
    }
}
