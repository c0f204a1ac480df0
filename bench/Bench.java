import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gateway overhead benchmark: the load client, the entitlements relay and the internal-JWT minter, JDK only, run by
 * bench/gateway-overhead.sh against a suite it started (compiled with bench/support, then
 * {@code java -cp DIR Bench --name=value ...}). One class over the usual 300 lines: the program reads in the order of
 * its run (setup, phases, report), and no other program uses its parts.
 *
 * <p>Closed-loop load: N connections, each a blocking HTTP/1.1 keep-alive socket sending the next request as
 * soon as the previous answer is read completely. Every request's latency (write of the request to the last
 * byte of the answer, System.nanoTime) is kept per status, so percentiles are exact (nearest rank over all
 * samples, no histogram buckets) and 200s are never mixed with 429s.
 */
public class Bench extends BenchSupport {
    static final int LIFTED_PER_MINUTE = 1_000_000_000;
    /** Process names in the CPU tables: the gateway's as CpuSnapshot names the suite's services, the proxy's its own. */
    static final String GATEWAY_PROCESS = "api-gateway";
    static final String BARE_PROXY_PROCESS = "bare proxy (phase 4)";

    // ---------------------------------------------------------------- configuration

    public static void main(String[] args) throws Exception {
        parseOptions(args);
        CpuSnapshot.countJvmThreads = true; // the CPU tables show the JIT compilers' part
        new Bench().run();
    }

    // ---------------------------------------------------------------- the run

    final Path state = Path.of(opt("state", ".herald"));
    final int gatewayPort = intOpt("gateway-port", 8080);
    final int directPort = intOpt("direct-port", 8181);
    final int connections = intOpt("connections", 8);
    final int warmupSeconds = intOpt("warmup", 10);
    final int warmupMaxSeconds = Math.max(warmupSeconds, intOpt("warmup-max", 60));
    final int warmupRequests = intOpt("warmup-requests", 30_000);
    static final int WARMUP_CHUNK_SECONDS = 5;
    String warmupOutcome = "";
    final int durationSeconds = intOpt("duration", 30);
    final int slices = intOpt("slices", 2);
    final int realPhaseSeconds = intOpt("real-phase", 10);
    final int lowLoadSeconds = intOpt("low-load", 10);
    /** Phase 4: direct against bench/BareProxy.java on this port (0 skips it), for this many seconds per target. */
    final int hopPort = intOpt("hop-port", 0);
    final int hopSeconds = intOpt("hop-duration", 30);
    String hopWarmupOutcome = "";
    /** override: usage-service runs with HERALD_USAGE_PLAN_OVERRIDES (scale.per_minute); relay: see Relay; real. */
    final String limitMode = opt("limit-mode", "override");
    String planOutcome = "-";
    String liftedLimitSeen = "-";
    final int clockTicks = intOpt("clk-tck", 100);
    final int waitIdleSeconds = intOpt("wait-idle", 60);
    String idleReport = "not checked";
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final StringBuilder notes = new StringBuilder();
    Relay relay;

    void run() throws Exception {
        Properties credentials = load(state.resolve("credentials"));
        Properties secrets = load(state.resolve("secrets.properties"));
        String adminToken = credentials.getProperty("HERALD_ADMIN_TOKEN");
        String gateway = "http://127.0.0.1:" + gatewayPort;
        long hopPid = Long.parseLong(opt("hop-pid", "0"));
        if (hopPid > 0) {
            CpuSnapshot.EXTRA_ROOTS.put(hopPid, BARE_PROXY_PROCESS);
        }

        if (limitMode.equals("relay")) {
            relay = new Relay(intOpt("relay-port", 18186), opt("usage-url", "http://127.0.0.1:8186"));
            relay.start();
        }

        // ---- setup through the admin API and the public API (the new workspace starts on the free plan)
        log("setup: workspace, test key, profile");
        Answer ws = send("POST", gateway + "/admin/v1/workspaces", adminToken, "{\"name\":\"gateway-overhead bench\"}");
        String workspaceId = require(ws, 201, "\"id\":\"(ws_[0-9a-f]+)\"", "create workspace");
        Answer key = send("POST", gateway + "/admin/v1/workspaces/" + workspaceId + "/api-keys", adminToken, "{\"mode\":\"test\"}");
        String apiKey = require(key, 201, "\"secret\":\"(sk_test_[A-Za-z0-9]+)\"", "create test key");
        Answer created = send("POST", gateway + "/api/v1/profiles", apiKey, "{\"name\":\"Bench profile\"}");
        String profileId = require(created, 201, "\"id\":\"(prf_[0-9A-Za-z]+)\"", "create profile");
        String jwt = mintInternalJwt(
                secrets.getProperty("internal-jwt.signing-key-id"), secrets.getProperty("internal-jwt.private-key"), workspaceId);

        Target direct = new Target("direct", directPort, "/profiles/" + profileId, jwt);
        Target viaGateway = new Target("gateway", gatewayPort, "/api/v1/profiles/" + profileId, apiKey);
        Answer d = send("GET", "http://127.0.0.1:" + directPort + direct.path, jwt, null);
        Answer g = send("GET", gateway + viaGateway.path, apiKey, null);
        if (d.status != 200 || !d.body.contains(profileId)) {
            throw new IllegalStateException("direct GET answered " + d.status + ": " + abbreviate(d.body, 300));
        }
        if (g.status != 200 || !g.body.contains(profileId)) {
            throw new IllegalStateException("gateway GET answered " + g.status + ": " + abbreviate(g.body, 300));
        }
        log("sanity: direct 200 (" + d.body.length() + " bytes), gateway 200 (" + g.body.length()
                + " bytes), X-RateLimit-Limit " + g.header("x-ratelimit-limit"));

        // ---- phase 1: the gateway under the new workspace's real limit (what a customer would see)
        Slice realPhase = null;
        if (realPhaseSeconds > 0) {
            log("phase 1: gateway under the plan's real per-minute limit, " + realPhaseSeconds + " s, no warm-up");
            realPhase = load(viaGateway, realPhaseSeconds);
            log("  " + realPhase.summary());
        }

        // ---- the plan change the issue asks for; with the override (or the relay) it lifts the limit
        Answer plan = send("PUT", gateway + "/admin/v1/workspaces/" + workspaceId + "/plan", adminToken,
                "{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}");
        planOutcome = plan.status == 200
                ? "200: the workspace's test mode is on scale (comp)"
                : plan.status + ": plan change refused or unavailable: " + abbreviate(plan.body, 300);
        log("PUT /admin/v1/workspaces/{id}/plan -> " + planOutcome);
        if (relay != null) {
            relay.lift = true;
        }
        if (!limitMode.equals("real")) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String seen = null;
            while (System.nanoTime() < deadline) {
                Answer probe = send("GET", gateway + viaGateway.path, apiKey, null);
                seen = probe.header("x-ratelimit-limit");
                if (String.valueOf(LIFTED_PER_MINUTE).equals(seen)) {
                    break;
                }
                Thread.sleep(500);
            }
            if (!String.valueOf(LIFTED_PER_MINUTE).equals(seen)) {
                throw new IllegalStateException("the gateway never applied the lifted limit (X-RateLimit-Limit " + seen + "): "
                        + (relay != null ? "the relay served " + relay.entitlements.get()
                        + " entitlements requests; is QUARKUS_REST_CLIENT_USAGE_SERVICE_URL reaching the gateway?"
                        : "did usage-service get HERALD_USAGE_PLAN_OVERRIDES, and did the plan change to scale succeed ("
                        + planOutcome + ")?"));
            }
            log("per-minute limit lifted: gateway answers X-RateLimit-Limit " + seen);
            liftedLimitSeen = seen;
        } else {
            liftedLimitSeen = send("GET", gateway + viaGateway.path, apiKey, null).header("x-ratelimit-limit");
        }

        // ---- phase 2: wait for a quiet machine, warm up, then alternating slices (ABBA order cancels linear drift)
        idleReport = CpuSnapshot.waitForQuietMachine(state, waitIdleSeconds, notes,
                "both targets were measured on a shared, contended CPU, so absolute numbers are pessimistic and noisy.");
        log("machine: " + idleReport);
        warmupOutcome = warmUp(direct, viaGateway);
        List<Slice> measured = alternate(direct, viaGateway, durationSeconds, connections);
        List<Slice> lowLoad = lowLoadSeconds > 0 ? alternate(direct, viaGateway, lowLoadSeconds, 1) : List.of();

        // ---- phase 4: the same direct target against a bare proxy in front of it, the ceiling for any HTTP hop
        List<Slice> hopSlices = List.of();
        if (hopPort > 0 && hopSeconds > 0) {
            Target hop = new Target("bare proxy", hopPort, direct.path, jwt);
            Answer h = send("GET", "http://127.0.0.1:" + hopPort + hop.path, jwt, null);
            if (h.status != 200 || !h.body.contains(profileId)) {
                throw new IllegalStateException("bare proxy GET answered " + h.status + ": " + abbreviate(h.body, 300));
            }
            log("phase 4: direct against a bare proxy in front of profiles-service");
            hopWarmupOutcome = warmUp(direct, hop);
            hopSlices = alternate(direct, hop, hopSeconds, connections);
        }
        String report = report(realPhase, measured, lowLoad, hopSlices, d.body.length(), g.body.length());
        writeResults(report);
        if (relay != null) {
            relay.stop();
        }
    }

    /**
     * Alternating 5 s chunks of each target until each has served --warmup-requests and its throughput is
     * steady (within 10% of its previous chunk), after at least --warmup and at most --warmup-max seconds per
     * target: the JIT compiles the services' hot paths only after thousands of
     * requests, which a fixed time may not reach on a slow machine.
     */
    String warmUp(Target direct, Target viaGateway) throws Exception {
        int minChunks = Math.max(1, (warmupSeconds + WARMUP_CHUNK_SECONDS - 1) / WARMUP_CHUNK_SECONDS);
        int maxChunks = Math.max(minChunks, warmupMaxSeconds / WARMUP_CHUNK_SECONDS);
        Target[] targets = {direct, viaGateway};
        double[] previous = {-1, -1};
        long[] served = {0, 0};
        int[] chunks = {0, 0};
        boolean[] done = {false, false};
        List<List<String>> trace = List.of(new ArrayList<>(), new ArrayList<>());
        log("warm-up: 5 s chunks per target until each served " + warmupRequests + " requests at a steady rate ("
                + warmupSeconds + " to " + warmupMaxSeconds + " s per target)");
        // A target that is warm sits out while the other one catches up (the proxy, slower, needs longer).
        while (!(done[0] && done[1])) {
            for (int i = 0; i < 2; i++) {
                if (done[i]) {
                    continue;
                }
                Slice s = load(targets[i], WARMUP_CHUNK_SECONDS);
                log("  warm-up " + s.summary());
                double rate = s.throughput();
                trace.get(i).add(String.format(Locale.ROOT, "%.0f", rate));
                served[i] += s.total();
                chunks[i]++;
                boolean steady = previous[i] > 0 && Math.abs(rate - previous[i]) <= 0.10 * previous[i];
                previous[i] = rate;
                if (chunks[i] >= minChunks && served[i] >= warmupRequests && steady) {
                    done[i] = true;
                } else if (chunks[i] >= maxChunks) {
                    done[i] = true;
                    notes.append("- The ").append(targets[i].name).append(" warm-up reached its maximum (")
                            .append(maxChunks * WARMUP_CHUNK_SECONDS).append(" s) before a steady rate (req/s per 5 s chunk: ")
                            .append(String.join(", ", trace.get(i))).append("); its measurement may still include JIT warm-up.\n");
                }
            }
        }
        return String.format(Locale.ROOT, "%d s %s (%d requests; req/s per 5 s chunk: %s), %d s %s (%d requests; %s)",
                chunks[0] * WARMUP_CHUNK_SECONDS, targets[0].name, served[0], String.join(", ", trace.get(0)),
                chunks[1] * WARMUP_CHUNK_SECONDS, targets[1].name, served[1], String.join(", ", trace.get(1)));
    }

    /** Measurement slices in ABBA order: direct, gateway, gateway, direct, ... */
    List<Slice> alternate(Target direct, Target viaGateway, int seconds, int conns) throws Exception {
        List<Slice> measured = new ArrayList<>();
        int sliceSeconds = Math.max(1, seconds / slices);
        for (int i = 0; i < slices; i++) {
            Target[] order = i % 2 == 0 ? new Target[] {direct, viaGateway} : new Target[] {viaGateway, direct};
            for (Target t : order) {
                log("measure " + t.name + ", " + conns + " connection(s), slice " + (i + 1) + "/" + slices + ", " + sliceSeconds + " s");
                Slice s = load(t, sliceSeconds, conns);
                s.connections = conns;
                log("  " + s.summary());
                measured.add(s);
            }
        }
        return measured;
    }

    // ---------------------------------------------------------------- report

    String report(Slice realPhase, List<Slice> measured, List<Slice> lowLoad, List<Slice> hopSlices,
                  int directBytes, int gatewayBytes) {
        Slice direct = Slice.merge("direct", measured);
        Slice gateway = Slice.merge("gateway", measured);
        Slice lowDirect = Slice.merge("direct", lowLoad);
        Slice lowGateway = Slice.merge("gateway", lowLoad);
        boolean lifted = !limitMode.equals("real");
        int sliceSeconds = Math.max(1, durationSeconds / slices);
        StringBuilder out = new StringBuilder();
        out.append("# Gateway overhead: `GET /profiles/{id}`, direct vs through api-gateway\n\n");

        // ---- summary first
        double addedP50 = added(direct, gateway, 0.50);
        double ratio = direct.throughput() == 0 ? 0 : gateway.throughput() / direct.throughput();
        out.append("| result | measured | target | verdict |\n|---|---:|---:|---|\n");
        out.append("| gateway added latency, p50, ").append(connections).append(" connections (CPU saturated) | ")
                .append(ms(addedP50)).append(" ms | < 1 ms | ").append(verdict(addedP50, addedP50 < 1_000_000)).append(" |\n");
        if (!lowLoad.isEmpty()) {
            double lowP50 = added(lowDirect, lowGateway, 0.50);
            out.append("| gateway added latency, p50, 1 connection (no queueing) | ").append(ms(lowP50))
                    .append(" ms | < 1 ms | ").append(verdict(lowP50, lowP50 < 1_000_000)).append(" |\n");
        }
        Slice hopDirect = Slice.merge("direct", hopSlices);
        Slice hop = Slice.merge("bare proxy", hopSlices);
        double hopRatio = hopDirect.throughput() == 0 ? Double.NaN : hop.throughput() / hopDirect.throughput();
        out.append("| throughput through the gateway / direct, ").append(connections).append(" connections | ")
                .append(String.format(Locale.ROOT, "%.1f%%", ratio * 100)).append(" | | |\n");
        if (hopSlices.isEmpty()) {
            out.append("| throughput through the gateway / through a bare proxy | not measured (--hop 0) | >= 80% | - |\n");
        } else {
            // Each ratio against its own phase's direct rate, so a host that drifts between phases does not move it.
            double ofHop = ratio / hopRatio;
            out.append("| reference (phase 4): throughput through a bare proxy / direct, ").append(connections)
                    .append(" connections | ").append(String.format(Locale.ROOT, "%.1f%%", hopRatio * 100))
                    .append(" | | the ceiling for any HTTP hop here |\n");
            out.append("| throughput through the gateway / through the bare proxy (each against its phase's direct) | ")
                    .append(String.format(Locale.ROOT, "%.1f%%", ofHop * 100)).append(" | >= 80% | ")
                    .append(verdict(ofHop, ofHop >= 0.80)).append(" |\n");
            double gatewayMicros = micros(gateway, GATEWAY_PROCESS);
            double hopMicros = micros(hop, BARE_PROXY_PROCESS);
            double cpuRatio = gatewayMicros / hopMicros;
            out.append(String.format(Locale.ROOT, "| CPU per request in the gateway's JVM / in the bare proxy's (%.0f / %.0f µs) | %.2fx",
                            gatewayMicros, hopMicros, cpuRatio))
                    .append(" | <= 1.3x | ").append(verdict(cpuRatio, cpuRatio <= 1.3)).append(" |\n");
        }
        out.append('\n');

        out.append("| setting | |\n|---|---|\n");
        row(out, "date (UTC)", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        row(out, "code measured", opt("source", "?"));
        row(out, "machine", opt("machine", "?"));
        row(out, "machine load", idleReport + "; during phase 2 other processes used "
                + otherShare(direct) + " (direct slices) and " + otherShare(gateway) + " (gateway slices) of the machine");
        row(out, "java (client)", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        row(out, "load", "closed loop, keep-alive HTTP/1.1; phase 2: " + connections + " connections, warm-up "
                + warmupOutcome + ", then " + slices + " x " + sliceSeconds + " s slices per target in ABBA order (direct, gateway, gateway, direct, ...)"
                + (lowLoad.isEmpty() ? "" : "; phase 3: 1 connection, " + slices + " x " + Math.max(1, lowLoadSeconds / slices) + " s slices per target, same order"));
        row(out, "direct", "`GET http://127.0.0.1:" + directPort + "/profiles/{id}` with a bench-minted internal JWT (RS256, "
                + "scope `profiles:read`); answer " + directBytes + " bytes");
        row(out, "through gateway", "`GET http://127.0.0.1:" + gatewayPort + "/api/v1/profiles/{id}` with an `sk_test_` key: "
                + "key lookup, scope check, per-minute window counted in PostgreSQL, forwarded with the gateway's "
                + "internal JWT; answer " + gatewayBytes + " bytes");
        row(out, "metering", "`GET /profiles/{id}` is exempt from monthly API-request metering (RouteCatalog: "
                + "`ApiRoute.exempt`): no meter unit is taken. It is authenticated and counted in the per-minute window");
        row(out, "plan change", "`PUT /admin/v1/workspaces/{id}/plan` `{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}` after phase 1 answered " + planOutcome);
        String liftText = switch (limitMode) {
            case "override" -> "**lifted through the project's hook** for phases 2 and 3: usage-service runs with `"
                    + opt("override", "?") + "` (plan catalog override, docs/usage.md), and the workspace was put on scale "
                    + "after phase 1; the gateway then announced `X-RateLimit-Limit: " + liftedLimitSeen + "`";
            case "relay" -> "**lifted by the bench's relay** for phases 2 and 3 (for code without the plan catalog override): the "
                    + "gateway reads entitlements through a relay that passes usage-service's answer on with `rate_limit.per_minute` = "
                    + LIFTED_PER_MINUTE + ", or writes one when usage-service has none (relay: " + relay.stats()
                    + "); the gateway then announced `X-RateLimit-Limit: " + liftedLimitSeen + "`";
            default -> "**real plan limit** throughout (`X-RateLimit-Limit: " + liftedLimitSeen
                    + "` after the plan change): 429s are counted, latency is over 200s only";
        };
        row(out, "per-minute limit", liftText + (lifted ? ". Admission still counts every request in its per-minute window in "
                + "PostgreSQL; it just never refuses" : ""));
        out.append('\n');

        if (realPhase != null) {
            out.append("## Phase 1: through the gateway under the real per-minute limit of a new workspace\n\n");
            out.append("Before the plan change, so on the free plan; no warm-up (the first requests to fresh JVMs), ").append(realPhase.seconds())
                    .append(" s, ").append(connections).append(" connections. `X-RateLimit-Limit` announced: ")
                    .append(realPhase.rateLimitHeader).append(".\n\n");
            out.append("| answers | count | p50 ms | p99 ms |\n|---|---:|---:|---:|\n");
            for (Map.Entry<Integer, Long> e : realPhase.statusCounts.entrySet()) {
                long[] lat = realPhase.latencies(e.getKey());
                out.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" | ")
                        .append(ms(pct(lat, 0.50))).append(" | ").append(ms(pct(lat, 0.99))).append(" |\n");
            }
            if (realPhase.ioErrors > 0) {
                out.append("| I/O errors | ").append(realPhase.ioErrors).append(" | | |\n");
            }
            long total = realPhase.total();
            long refused = realPhase.statusCounts.getOrDefault(429, 0L);
            out.append("\n429 ratio: ").append(pctText(refused, total)).append(" of ").append(total)
                    .append(" answers. No throughput benchmark can run under this limit; ")
                    .append(lifted ? "phases 2 and 3 lift it.\n\n" : "phases 2 and 3 below are rate limited too.\n\n");
        }

        out.append("## Phase 2: ").append(connections).append(" connections")
                .append(lifted ? ", per-minute limit lifted" : ", RATE LIMITED (latency over 200s only)").append("\n\n");
        latencyTable(out, List.of(direct, gateway), true);
        addedTable(out, direct, gateway, true);
        out.append("Slices in the order they ran:\n\n");
        latencyTable(out, measured, false);

        if (!lowLoad.isEmpty()) {
            out.append("## Phase 3: 1 connection (latency without queueing)\n\n");
            latencyTable(out, List.of(lowDirect, lowGateway), true);
            addedTable(out, lowDirect, lowGateway, false);
            out.append("Slices in the order they ran:\n\n");
            latencyTable(out, lowLoad, false);
        }

        out.append("## CPU per request (phase 2)\n\n");
        out.append("CPU time (utime+stime from /proc) per answered request, by process; PostgreSQL includes every backend, ")
                .append("`other` is everything else on the machine, including unrelated work. Two cores give 2,000,000 µs per second.\n\n");
        cpuTable(out, direct, gateway);

        if (!hopSlices.isEmpty()) {
            out.append("## Phase 4: the ceiling, a bare proxy in front of profiles-service\n\n");
            out.append("The same direct request (same JWT, same profile) through `bench/BareProxy.java`: Vert.x core on the gateway's own ")
                    .append("Vert.x and Netty jars, as many event loops as a service, forwarding the path and the Authorization header over ")
                    .append("keep-alive connections and piping the answer back; no router, authentication, admission, request log, ")
                    .append("tracing or metrics. Warm-up ").append(hopWarmupOutcome).append(", then ").append(slices).append(" x ")
                    .append(Math.max(1, hopSeconds / slices)).append(" s slices per target in ABBA order, ").append(connections)
                    .append(" connections.\n\n");
            latencyTable(out, List.of(hopDirect, hop), true);
            out.append(String.format(Locale.ROOT, "Throughput through the bare proxy / direct: **%.1f%%**. ", hopRatio * 100))
                    .append(String.format(Locale.ROOT, "The gateway (phase 2) kept %.1f%% of direct, so it delivers **%.0f%%** of what the "
                            + "bare hop does (target: at least 80%%).\n\n", ratio * 100, 100 * ratio / hopRatio));
            out.append("Slices in the order they ran:\n\n");
            latencyTable(out, hopSlices, false);
            cpuTable(out, hopDirect, hop);
        }

        for (Slice s : List.of(direct, gateway)) {
            if (s.systemTotal > 0 && 100.0 * s.cpuTicks.getOrDefault("other", 0L) / s.systemTotal >= 10) {
                notes.append("- Other processes used ").append(otherShare(s)).append(" of the machine during the ")
                        .append(s.name).append(" slices of phase 2: those numbers are distorted by unrelated work.\n");
            }
        }
        if (notes.length() > 0) {
            out.append("## Notes\n\n").append(notes).append('\n');
        }
        return out.toString();
    }

    /** CPU per answered request by process, one column per target, with the sum of all but `other` and how busy the machine was. */
    void cpuTable(StringBuilder out, Slice left, Slice right) {
        java.util.TreeSet<String> components = new java.util.TreeSet<>(left.cpuTicks.keySet());
        components.addAll(right.cpuTicks.keySet());
        out.append("| process | ").append(left.name).append(": µs CPU / request | ").append(right.name)
                .append(": µs CPU / request |\n|---|---:|---:|\n");
        long leftSum = 0;
        long rightSum = 0;
        for (String c : components) {
            out.append("| ").append(c).append(" | ").append(cpuPerRequest(left, c)).append(" | ")
                    .append(cpuPerRequest(right, c)).append(" |\n");
            if (!c.equals("other")) {
                leftSum += left.cpuTicks.getOrDefault(c, 0L);
                rightSum += right.cpuTicks.getOrDefault(c, 0L);
            }
        }
        out.append("| **all but other** | ").append(perRequest(leftSum, left)).append(" | ")
                .append(perRequest(rightSum, right)).append(" |\n");
        out.append("| of these, the JVMs' JIT compiler threads | ").append(perRequest(left.jitTicks, left)).append(" | ")
                .append(perRequest(right.jitTicks, right)).append(" |\n");
        out.append("| machine busy | ").append(busy(left)).append(" | ").append(busy(right)).append(" |\n\n");
    }

    /** Gateway percentile minus direct percentile of 200s; NaN when either has none. */
    static double added(Slice direct, Slice gateway, double q) {
        long[] g = gateway.latencies(200);
        long[] d = direct.latencies(200);
        return g.length == 0 || d.length == 0 ? Double.NaN : pct(g, q) - (double) pct(d, q);
    }

    String verdict(double value, boolean met) {
        if (limitMode.equals("real")) {
            return "not measurable: rate limited";
        }
        return Double.isNaN(value) ? "not measurable" : met ? "met" : "**not met**";
    }

    static void latencyTable(StringBuilder out, List<Slice> rows, boolean bold) {
        out.append("| target | 200s | 429s | other | req/s (200) | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | CPU used by other processes |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Slice s : rows) {
            tableRow(out, bold ? "**" + s.name + "**" : s.name, s);
        }
        out.append('\n');
    }

    static void addedTable(StringBuilder out, Slice direct, Slice gateway, boolean withThroughput) {
        out.append("| gateway minus direct | p50 | p90 | p99 |");
        out.append(withThroughput ? " throughput ratio |\n|---|---:|---:|---:|---:|\n" : "\n|---|---:|---:|---:|\n");
        out.append("| added latency, ms | ").append(ms(added(direct, gateway, 0.50))).append(" | ")
                .append(ms(added(direct, gateway, 0.90))).append(" | ").append(ms(added(direct, gateway, 0.99))).append(" |");
        if (withThroughput) {
            double ratio = direct.throughput() == 0 ? 0 : gateway.throughput() / direct.throughput();
            out.append(String.format(Locale.ROOT, " %.1f%% |", ratio * 100));
        }
        out.append("\n\n");
    }

    String perRequest(long ticks, Slice s) {
        long requests = s.total();
        return requests == 0 ? "-" : String.format(Locale.ROOT, "%.0f", ticks * 1_000_000.0 / clockTicks / requests);
    }

    static void tableRow(StringBuilder out, String label, Slice s) {
        long[] lat = s.latencies(200);
        out.append("| ").append(label).append(" | ").append(s.statusCounts.getOrDefault(200, 0L)).append(" | ")
                .append(s.statusCounts.getOrDefault(429, 0L)).append(" | ").append(s.other()).append(" | ")
                .append(String.format(Locale.ROOT, "%.0f", s.throughput())).append(" | ")
                .append(ms(pct(lat, 0.50))).append(" | ").append(ms(pct(lat, 0.90))).append(" | ")
                .append(ms(pct(lat, 0.99))).append(" | ").append(ms(pct(lat, 0.999))).append(" | ")
                .append(ms(lat.length == 0 ? -1 : lat[lat.length - 1])).append(" | ").append(otherShare(s)).append(" |\n");
    }

    /** CPU microseconds of {@code component} per answered request of {@code s}; NaN without requests. */
    double micros(Slice s, String component) {
        long requests = s.total();
        return requests == 0 ? Double.NaN : s.cpuTicks.getOrDefault(component, 0L) * 1_000_000.0 / clockTicks / requests;
    }

    String cpuPerRequest(Slice s, String component) {
        double micros = micros(s, component);
        return Double.isNaN(micros) ? "-" : String.format(Locale.ROOT, "%.0f", micros);
    }

    static String otherShare(Slice s) {
        return s.systemTotal == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * s.cpuTicks.getOrDefault("other", 0L) / s.systemTotal);
    }

    static String busy(Slice s) {
        return s.systemTotal == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * s.systemBusy / s.systemTotal);
    }

    static String pctText(long part, long total) {
        return total == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / total);
    }

    static String ms(double nanos) {
        return Double.isNaN(nanos) || (nanos < 0 && nanos > -1.5) ? "-" : String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0);
    }

    // ---------------------------------------------------------------- load generation

    record Target(String name, int port, String path, String bearer) {
        byte[] request() {
            return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + bearer
                    + "\r\nAccept: application/json\r\nUser-Agent: herald-bench\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    static final class Slice {
        final String name;
        final Map<Integer, Long> statusCounts = new TreeMap<>();
        final Map<Integer, LongList> latencies = new HashMap<>();
        long ioErrors;
        long nanos;
        int connections;
        String rateLimitHeader = "-";
        Map<String, Long> cpuTicks = new TreeMap<>();
        /** Of {@link #cpuTicks}: the suite's JVMs' JIT compiler threads (a measurement still compiling shows here). */
        long jitTicks;
        long systemBusy;
        long systemTotal;

        Slice(String name) {
            this.name = name;
        }

        long[] latencies(int status) {
            LongList l = latencies.get(status);
            if (l == null) {
                return new long[0];
            }
            long[] a = l.toArray();
            Arrays.sort(a);
            return a;
        }

        long total() {
            return statusCounts.values().stream().mapToLong(Long::longValue).sum();
        }

        long other() {
            return total() - statusCounts.getOrDefault(200, 0L) - statusCounts.getOrDefault(429, 0L) + ioErrors;
        }

        double throughput() {
            return nanos == 0 ? 0 : statusCounts.getOrDefault(200, 0L) * 1e9 / nanos;
        }

        String seconds() {
            return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
        }

        String summary() {
            long[] ok = latencies(200);
            return String.format(Locale.ROOT, "%-7s %s s: %s, io errors %d, %.0f req/s (200), p50 %s ms, p99 %s ms, CPU busy %s (other processes %s)",
                    name, seconds(), statusCounts, ioErrors, throughput(), ms(pct(ok, 0.5)), ms(pct(ok, 0.99)), busy(this), otherShare(this));
        }

        static Slice merge(String name, List<Slice> slices) {
            Slice m = new Slice(name);
            for (Slice s : slices) {
                if (!s.name.equals(name)) {
                    continue;
                }
                s.statusCounts.forEach((k, v) -> m.statusCounts.merge(k, v, Long::sum));
                s.latencies.forEach((k, v) -> m.latencies.computeIfAbsent(k, x -> new LongList()).addAll(v));
                s.cpuTicks.forEach((k, v) -> m.cpuTicks.merge(k, v, Long::sum));
                m.jitTicks += s.jitTicks;
                m.ioErrors += s.ioErrors;
                m.nanos += s.nanos;
                m.systemBusy += s.systemBusy;
                m.systemTotal += s.systemTotal;
                m.rateLimitHeader = s.rateLimitHeader;
                m.connections = s.connections;
            }
            return m;
        }
    }

    /** One slice: every connection runs requests back to back until the deadline. */
    Slice load(Target target, int seconds) throws Exception {
        return load(target, seconds, connections);
    }

    Slice load(Target target, int seconds, int connections) throws Exception {
        byte[] request = target.request();
        Worker[] workers = new Worker[connections];
        for (int i = 0; i < connections; i++) {
            workers[i] = new Worker(target, request);
            workers[i].connection.connect();
        }
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[connections];
        for (int i = 0; i < connections; i++) {
            Worker w = workers[i];
            threads[i] = new Thread(() -> w.loop(go), "load-" + target.name + "-" + i);
            threads[i].start();
        }
        CpuSnapshot before = CpuSnapshot.take(state);
        long start = System.nanoTime();
        long deadline = start + seconds * 1_000_000_000L;
        for (Worker w : workers) {
            w.deadline = deadline;
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        CpuSnapshot after = CpuSnapshot.take(state);
        Slice slice = new Slice(target.name);
        slice.nanos = end - start;
        for (Worker w : workers) {
            w.connection.close();
            w.counts.forEach((k, v) -> slice.statusCounts.merge(k, v, Long::sum));
            w.latencies.forEach((k, v) -> slice.latencies.computeIfAbsent(k, x -> new LongList()).addAll(v));
            slice.ioErrors += w.ioErrors;
            if (w.connection.rateLimitLimit != null) {
                slice.rateLimitHeader = w.connection.rateLimitLimit;
            }
        }
        slice.cpuTicks = after.minus(before);
        slice.jitTicks = after.threadsMinus(before).getOrDefault(CpuSnapshot.JIT, 0L);
        slice.systemBusy = after.systemBusy - before.systemBusy;
        slice.systemTotal = after.systemTotal - before.systemTotal;
        return slice;
    }

    static final class Worker {
        final Target target;
        final byte[] request;
        final HttpConnection connection;
        volatile long deadline;
        final Map<Integer, Long> counts = new TreeMap<>();
        final Map<Integer, LongList> latencies = new HashMap<>();
        long ioErrors;

        Worker(Target target, byte[] request) {
            this.target = target;
            this.request = request;
            this.connection = new HttpConnection(target.port, 10_000, false);
        }

        void loop(CountDownLatch go) {
            try {
                go.await();
            } catch (InterruptedException e) {
                return;
            }
            while (System.nanoTime() < deadline) {
                long t0 = System.nanoTime();
                try {
                    connection.exchange(request);
                    long t1 = System.nanoTime();
                    latencies.computeIfAbsent(connection.status, k -> new LongList()).add(t1 - t0);
                    counts.merge(connection.status, 1L, Long::sum);
                    connection.reopenIfClosed();
                } catch (IOException e) {
                    ioErrors++;
                    connection.reopenAfterError();
                }
            }
        }
    }

    // ---------------------------------------------------------------- entitlements relay

    /**
     * Stands between the gateway and usage-service (the gateway's usage-service URL points here). Passes every
     * call through unchanged until {@link #lift} is set; then {@code GET /internal/entitlements} answers carry
     * {@code rate_limit.per_minute} = {@value #LIFTED_PER_MINUTE}. When usage-service has no answer for
     * entitlements, a lifted answer is synthesised (free plan's other terms) so the benchmark can still run.
     * Only for code from before usage-service's plan catalog override (HERALD_USAGE_PLAN_OVERRIDES), which
     * --limit-mode override (the default where it exists) uses instead.
     */
    final class Relay {
        final int port;
        final String upstream;
        volatile boolean lift;
        HttpServer server;
        final AtomicLong entitlements = new AtomicLong();
        final AtomicLong rewritten = new AtomicLong();
        final AtomicLong synthesised = new AtomicLong();
        final Map<String, AtomicLong> upstreamStatuses = new java.util.concurrent.ConcurrentHashMap<>();

        Relay(int port, String upstream) {
            this.port = port;
            this.upstream = upstream;
        }

        void start() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
            server.createContext("/", this::handle);
            server.setExecutor(Executors.newFixedThreadPool(2));
            server.start();
        }

        void stop() {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }

        String stats() {
            return entitlements.get() + " entitlements requests, " + rewritten.get() + " lifted from usage-service's answer, "
                    + synthesised.get() + " synthesised; usage-service answered " + upstreamStatuses;
        }

        void handle(HttpExchange exchange) throws IOException {
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            byte[] body = exchange.getRequestBody().readAllBytes();
            boolean isEntitlements = path.equals("/internal/entitlements") && exchange.getRequestMethod().equals("GET");
            if (isEntitlements) {
                entitlements.incrementAndGet();
            }
            int status;
            byte[] answer;
            String contentType = "application/json";
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(upstream + path + (query == null ? "" : "?" + query)))
                        .timeout(Duration.ofSeconds(4))
                        .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
                for (String h : List.of("Authorization", "Content-Type", "Accept", "X-Request-Id")) {
                    String v = exchange.getRequestHeaders().getFirst(h);
                    if (v != null) {
                        b.header(h, v);
                    }
                }
                HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                status = r.statusCode();
                answer = r.body();
                contentType = r.headers().firstValue("content-type").orElse(contentType);
            } catch (Exception e) {
                status = 599;
                answer = ("{\"error\":{\"code\":\"relay\",\"message\":\"" + e.getClass().getSimpleName() + "\"}}")
                        .getBytes(StandardCharsets.UTF_8);
            }
            if (isEntitlements) {
                upstreamStatuses.computeIfAbsent(String.valueOf(status), k -> new AtomicLong()).incrementAndGet();
            }
            if (isEntitlements && lift) {
                String text = new String(answer, StandardCharsets.UTF_8);
                Matcher m = Pattern.compile("\"per_minute\"\\s*:\\s*\\d+").matcher(text);
                if (status == 200 && m.find()) {
                    text = m.replaceFirst("\"per_minute\":" + LIFTED_PER_MINUTE);
                    rewritten.incrementAndGet();
                } else {
                    text = synthesise(exchange.getRequestHeaders().getFirst("Authorization"));
                    status = 200;
                    contentType = "application/json";
                    synthesised.incrementAndGet();
                }
                answer = text.getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().set("content-type", contentType);
            exchange.sendResponseHeaders(status == 599 ? 502 : status, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
            exchange.close();
        }

        String synthesise(String authorization) {
            boolean test = true;
            try {
                String payload = new String(Base64.getUrlDecoder().decode(authorization.substring(7).split("\\.")[1]), StandardCharsets.UTF_8);
                test = !payload.contains("\"mode\":\"live\"");
            } catch (RuntimeException ignored) {
                // assume test
            }
            YearMonth month = YearMonth.now(ZoneOffset.UTC);
            return "{\"data\":{\"plan\":\"free\",\"plan_source\":\"free\",\"period\":{\"start\":\""
                    + month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC) + "\",\"end\":\""
                    + month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC)
                    + "\"},\"rate_limit\":{\"per_minute\":" + LIFTED_PER_MINUTE + "},\"api_requests_limit\":"
                    + (test ? 10_000 : 2_000) + "}}";
        }
    }

    // ---------------------------------------------------------------- internal JWT

    /** RS256 with its key id, issuer herald-gateway, audience herald-services, as InternalTokenIssuer mints them; valid 2 hours. */
    static String mintInternalJwt(String keyId, String privateKeyPem, String workspaceId) throws Exception {
        String base64 = privateKeyPem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        long now = Instant.now().getEpochSecond();
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + keyId + "\"}";
        String claims = "{\"iss\":\"herald-gateway\",\"aud\":\"herald-services\",\"sub\":\"bench\",\"wid\":\"" + workspaceId
                + "\",\"mode\":\"test\",\"scope\":\"profiles:read\",\"iat\":" + now + ",\"exp\":" + (now + 7200) + "}";
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = b64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signingInput + "." + b64.encodeToString(rsa.sign());
    }

    // ---------------------------------------------------------------- setup calls

    Answer send(String method, String url, String bearer, String json) throws Exception {
        return send(http, Duration.ofSeconds(15), method, url, bearer, json, Map.of());
    }
}
