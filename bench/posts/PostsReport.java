import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The posts benchmark's results file (Markdown), from the phases, the pipeline's measurement and the reference. */
abstract class PostsReport extends PostsPipeline {
    // ---------------------------------------------------------------- report

    String report(List<Phase> phases, Phase best, Phase sustained, Phase open, Reference ref) {
        StringBuilder out = new StringBuilder();
        out.append("# Posts pipeline: accepted posts/s through the gateway, accepted -> published, direct-SQL reference\n\n");

        double ratio = ref.tps() == 0 ? 0 : best.throughput() / ref.tps();
        out.append("Targets of issue 37 (posts per core) and issue 40 (time to steady).\n\n");
        out.append("| result | measured | target | verdict |\n|---|---:|---:|---|\n");
        out.append("| accepted posts/s through the gateway (best closed loop: ").append(best.connections).append(" connections) | ")
                .append(fmt0(best.throughput())).append(" | >= 550 | ").append(verdict(best.throughput() >= 550)).append(" |\n");
        if (sustained != null) {
            double published = sustained.published == null ? Double.NaN : sustained.published.publishedDuringLoad() * 1e9 / sustained.nanos;
            out.append("| end to end: accepted / published posts/s with the backlog held under ").append(backlogCap)
                    .append(" (sustained phase) | ").append(fmt0(sustained.throughput())).append(" / ").append(fmt0(published))
                    .append(" | >= 450 / 450 | ").append(verdict(sustained.throughput() >= 450 && published >= 450)).append(" |\n");
        }
        double cpuPerPost = best.accepted() == 0 ? Double.NaN
                : sumButOther(best.all.ticks()) * 1000.0 / clockTicks / best.accepted();
        out.append("| CPU per accepted post, every process but `other`, best closed loop, load + drain | ")
                .append(Double.isNaN(cpuPerPost) ? "-" : String.format(Locale.ROOT, "%.1f", cpuPerPost)).append(" ms | <= 3.6 ms | ")
                .append(verdict(cpuPerPost <= 3.6)).append(" |\n");
        out.append("| accepted posts/s / direct-SQL posts/s | ").append(fmt0(best.throughput())).append(" / ").append(fmt0(ref.tps()))
                .append(" = ").append(String.format(Locale.ROOT, "%.1f%%", 100 * ratio)).append(" | >= 25% | ")
                .append(verdict(ratio >= 0.25)).append(" |\n");
        Phase atEight = phases.stream().filter(p -> !p.openLoop && !p.gated && p.connections == 8).findFirst().orElse(null);
        if (atEight == null) {
            out.append("| p99 acceptance latency (202), closed loop at 8 connections | not measured (no 8-connection phase) | <= 50 ms | - |\n");
        } else {
            double p99 = pct(atEight.sorted(), 0.99);
            out.append("| p99 acceptance latency (202), closed loop at 8 connections | ").append(ms(p99)).append(" ms | <= 50 ms | ")
                    .append(verdict(p99 <= 50_000_000)).append(" |\n");
        }
        out.append("| time to steady throughput after ready | ")
                .append(timeToSteady == null ? "not computed" : timeToSteady.verdictFigure()).append(" | <= 60 s | ")
                .append(timeToSteady == null ? "-" : verdict(timeToSteady.met(60))).append(" |\n\n");

        out.append("| setting | |\n|---|---|\n");
        row(out, "date (UTC)", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        row(out, "code measured", opt("source", "?"));
        row(out, "machine", opt("machine", "?"));
        row(out, "machine load", idleReport + "; during the measured phases other processes used "
                + phases.stream().map(p -> share(p.load.ticks().getOrDefault("other", 0L), p.load.total())).collect(Collectors.joining(", "))
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
        row(out, "time to steady", timeToSteady == null ? "not computed (see Notes)" : timeToSteady.describe()
                + " (issue 40: at most 60 s; meaningful only with `--wait-idle 0`, so that the load starts right after setup)");
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
            components.addAll(p.all.ticks().keySet());
            components.addAll(p.load.ticks().keySet());
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
                out.append(' ').append(perPost(p.load.ticks().getOrDefault(c, 0L), p.accepted())).append(" | ")
                        .append(perPost(p.all.ticks().getOrDefault(c, 0L), p.accepted())).append(" |");
            }
            out.append('\n');
        }
        out.append("| **all but other** |");
        for (Phase p : phases) {
            out.append(' ').append(perPost(sumButOther(p.load.ticks()), p.accepted())).append(" | ")
                    .append(perPost(sumButOther(p.all.ticks()), p.accepted())).append(" |");
        }
        out.append("\n| machine busy |");
        for (Phase p : phases) {
            out.append(' ').append(share(p.load.busy(), p.load.total())).append(" | ").append(share(p.all.busy(), p.all.total())).append(" |");
        }
        for (String kind : List.of(CpuSnapshot.JIT, CpuSnapshot.GC)) {
            out.append("\n| of the suite's JVMs: ").append(kind).append(" |");
            for (Phase p : phases) {
                out.append(' ').append(perPost(p.load.threads().getOrDefault(kind, 0L), p.accepted())).append(" | ")
                        .append(perPost(p.all.threads().getOrDefault(kind, 0L), p.accepted())).append(" |");
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
            if (p.load.total() > 0 && 100.0 * p.load.ticks().getOrDefault("other", 0L) / p.load.total() >= 10) {
                notes.append("- Other processes used ").append(share(p.load.ticks().getOrDefault("other", 0L), p.load.total()))
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

    String perPost(long ticks, long posts) {
        return posts == 0 ? "-" : String.format(Locale.ROOT, "%.0f", ticks * 1_000_000.0 / clockTicks / posts);
    }
}
