import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The posts pipeline after the load (drain, accepted -> published from posts-service's database) and the direct-SQL reference. */
abstract class PostsPipeline extends PostsLoad {
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
        phase.all = CpuUse.between(phase.cpuBefore, after);
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
}
