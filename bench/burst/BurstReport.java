import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The burst benchmark's results file (Markdown), from what {@link BurstBench} measured. */
final class BurstReport {
    static final double P50_TARGET_MS = 10_000;
    static final double P99_TARGET_MS = 30_000;
    static final double MAX_TARGET_MS = 45_000;
    static final double STEADY_P99_TARGET_MS = 1_500;

    private BurstReport() {}

    static String report(BurstBench b) {
        StringBuilder out = new StringBuilder();
        LagSummary burst = b.burst;
        out.append("# Scheduled burst: ").append(b.burstPosts).append(" posts due at one instant");
        if (b.steady != null) {
            out.append(", and a steady ").append(PostsRunState.fmt0(b.steadyRate)).append(" scheduled posts/s");
        }
        out.append("\n\n");
        out.append("| result | measured | target | verdict |\n|---|---:|---:|---|\n");
        out.append("| burst: posts published, of ").append(b.burstPosts).append(" | ").append(burst.published).append(" (")
                .append(counts(burst)).append(") | all | ").append(BenchSupport.verdict(burst.published == b.burstPosts)).append(" |\n");
        target(out, "burst: lag p50", burst.pct(0.5), P50_TARGET_MS, "<= 10 s", 1);
        target(out, "burst: lag p99", burst.pct(0.99), P99_TARGET_MS, "<= 30 s", 1);
        target(out, "burst: lag max", burst.max(), MAX_TARGET_MS, "<= 45 s", 1);
        if (b.steady != null) {
            target(out, "steady " + PostsRunState.fmt0(b.steadyRate) + " scheduled posts/s for " + b.steadyDuration + " s: lag p99",
                    b.steady.pct(0.99), STEADY_P99_TARGET_MS, "<= 1.5 s", 3);
        }
        out.append('\n');
        String png = b.plot.getFileName().toString();
        out.append("![lag distribution and lag per post](").append(png).append(")\n\n");

        out.append("| setting | |\n|---|---|\n");
        BenchSupport.row(out, "date (UTC)", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        BenchSupport.row(out, "code measured", BenchSupport.opt("source", "?"));
        BenchSupport.row(out, "command", BenchSupport.opt("command", "bench/burst.sh"));
        BenchSupport.row(out, "machine", BenchSupport.opt("machine", "?"));
        BenchSupport.row(out, "machine load", BenchSupport.opt("quiet", "") + b.idleReport + "; from the instant to the last publication "
                + "the machine was " + BenchSupport.share(b.burstCpu.busy(), b.burstCpu.total()) + " busy, other processes "
                + BenchSupport.share(b.burstCpu.ticks().getOrDefault("other", 0L), b.burstCpu.total()));
        BenchSupport.row(out, "PostgreSQL", b.postgresSettings);
        BenchSupport.row(out, "workspaces and limits", b.sizing + ". Each workspace: a test key, the scale plan (comp; answers "
                + b.planAnswers + "), one LinkedIn sandbox account; the gateway announced `X-RateLimit-Limit: " + b.rateLimitSeen
                + "`. Limits on, as in production");
        BenchSupport.row(out, "warm-up", "posts due at once, closed loop (" + b.connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(16)
                + " connections) waiting while more than " + b.backlogCap + " posts are queued or publishing, " + b.warmupOutcome
                + "; then drained");
        BenchSupport.row(out, "burst", b.burstPosts + " posts, `scheduled_at` " + b.instantText + " for all (" + b.leadChoice
                + "); closed loop, pacer at most " + PostsRunState.fmt0(b.rate) + " posts/s; deadline " + b.deadlineSeconds
                + " s after the instant");
        if (b.steady != null) {
            BenchSupport.row(out, "steady mode", "open loop for " + b.steadyDuration + " s, " + b.openConnections + " connections: post n sent at "
                    + "start + n / " + PostsRunState.fmt0(b.steadyRate) + " s with `scheduled_at` = that time + " + b.steadyAhead
                    + " s (so " + PostsRunState.fmt0(b.steadyRate) + " posts fall due every second); deadline: the last post's time + "
                    + b.drainTimeoutSeconds + " s");
        }
        BenchSupport.row(out, "lag", "per post (one target each): the target's `completed_at` (when delivery-worker had the sandbox "
                + "platform's answer) minus the post's `scheduled_at`, both read through the public API (`GET /api/v1/posts?q=<run "
                + "marker>`, every page, each workspace's key) after the deadline. A post not published by the deadline counts as "
                + "later than every other (a percentile falling on one reads \"> deadline\"). `shown final` is the post's "
                + "`updated_at` (its finalization: when `GET /posts` first shows it published) minus `scheduled_at`. Progress "
                + "while waiting is one count per second in posts-service's database (it decides when to stop waiting, nothing else)");
        BenchSupport.row(out, "sanity check", "one post before the load: " + b.sanity);
        out.append('\n');

        out.append("## The burst\n\n");
        Phase a = b.burstPhase;
        long[] s = a.sorted();
        out.append("Acceptance: ").append(a.accepted()).append(" posts accepted (202) of ").append(a.total()).append(" sent in ")
                .append(String.format(Locale.ROOT, "%.1f s (%.0f posts/s)", a.nanos / 1e9, a.throughput()))
                .append(", p50 ").append(PostsRunState.ms(BenchSupport.pct(s, 0.5))).append(" ms, p99 ")
                .append(PostsRunState.ms(BenchSupport.pct(s, 0.99))).append(" ms; other answers: ")
                .append(a.others.isEmpty() ? "none" : a.others.toString()).append("; the last answer came ")
                .append(String.format(Locale.ROOT, "%.1f", Duration.between(b.burstSentAt, b.instant).toMillis() / 1000.0))
                .append(" s before the instant. Accepted posts/s per 5 s: ").append(PostsReport.perFive(a)).append(".\n\n");
        if (burst.outcomes.size() != a.accepted()) {
            out.append("**`GET /posts` listed ").append(burst.outcomes.size()).append(" of the ").append(a.accepted())
                    .append(" accepted posts.**\n\n");
        }
        lagTable(out, burst, 1);
        out.append("Posts queued or publishing after the instant (posts-service's database, every 5 s; in brackets those not yet "
                + "handed to delivery, still `queued`): ")
                .append(b.pendingAfterInstant.stream().filter(p -> p[0] % 5 == 0).collect(Collectors.toMap(p -> p[0],
                        p -> p[1] + " (" + p[2] + ")", (x, y) -> x, TreeMap::new)).entrySet().stream()
                        .map(e -> e.getKey() + " s: " + e.getValue()).collect(Collectors.joining(", "))).append(".\n\n");
        out.append("Targets published per second after the instant (from `completed_at`, mean of each 5 s): ")
                .append(publishedPerFive(burst, b.instant)).append(".\n\n");
        out.append("CPU from the instant to the end of the wait, as a share of the whole machine (all cores; `other`: processes "
                + "outside the suite and this client):\n\n");
        out.append("| process | share |\n|---|---:|\n");
        b.burstCpu.ticks().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .filter(e -> e.getValue() > 0)
                .forEach(e -> out.append("| ").append(e.getKey()).append(" | ").append(BenchSupport.share(e.getValue(), b.burstCpu.total()))
                        .append(" |\n"));
        out.append('\n');

        if (b.steady != null) {
            Phase p = b.steadyPhase;
            long[] t = p.sorted();
            out.append("## Steady ").append(PostsRunState.fmt0(b.steadyRate)).append(" scheduled posts/s\n\n");
            out.append("Acceptance: ").append(p.accepted()).append(" accepted of ").append(p.total()).append(" sent, ").append(p.dropped)
                    .append(" dropped (over 1 s behind schedule), other answers: ").append(p.others.isEmpty() ? "none" : p.others.toString())
                    .append("; p50 ").append(PostsRunState.ms(BenchSupport.pct(t, 0.5))).append(" ms, p99 ")
                    .append(PostsRunState.ms(BenchSupport.pct(t, 0.99))).append(" ms from each post's due time.\n\n");
            lagTable(out, b.steady, 3);
        }
        if (b.notes.length() > 0) {
            out.append("## Notes\n\n").append(b.notes).append('\n');
        }
        return out.toString();
    }

    static void target(StringBuilder out, String name, double millis, double limit, String targetText, int decimals) {
        out.append("| ").append(name).append(" | ").append(LagSummary.seconds(millis, decimals)).append(" | ").append(targetText)
                .append(" | ").append(BenchSupport.verdict(LagSummary.within(millis, limit))).append(" |\n");
    }

    static String counts(LagSummary l) {
        return l.failed + " failed, " + l.notFinal + " not final at the deadline"
                + (l.missing > 0 ? ", " + l.missing + " not accepted or not listed by `GET /posts`" : "");
    }

    static void lagTable(StringBuilder out, LagSummary l, int decimals) {
        out.append(l.outcomes.size()).append(" posts read through the API: ").append(l.published).append(" published by the deadline, ")
                .append(counts(l)).append(". Percentiles over all ").append(l.lags.length).append(".\n\n");
        out.append("| lag | p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < 2; i++) {
            double[] v = i == 0 ? l.lags : l.visibleLags;
            out.append(i == 0 ? "| published (`completed_at - scheduled_at`) |" : "| shown final (`updated_at - scheduled_at`) |");
            for (double q : new double[] {0.5, 0.9, 0.99, 0.999, 1.0}) {
                out.append(' ').append(LagSummary.seconds(LagSummary.pct(v, q), decimals)).append(" |");
            }
            out.append('\n');
        }
        out.append('\n');
    }

    /** Targets whose completed_at falls in each 5 s after {@code from}, as a rate. */
    static String publishedPerFive(LagSummary l, Instant from) {
        TreeMap<Long, Long> perFive = new TreeMap<>();
        for (Outcomes.Outcome o : l.outcomes) {
            if (o.published()) {
                long sec = Math.floorDiv(Duration.between(from, o.completedAt()).toMillis(), 5000) * 5;
                perFive.merge(sec, 1L, Long::sum);
            }
        }
        return perFive.entrySet().stream().map(e -> e.getKey() + "-" + (e.getKey() + 5) + " s: " + Math.round(e.getValue() / 5.0) + "/s")
                .collect(Collectors.joining(", "));
    }
}
