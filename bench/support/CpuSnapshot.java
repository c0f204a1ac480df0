import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CPU ticks per component of the suite, read from /proc, shared by the bench programs (Bench, PostsBench and
 * SoakBench, WebhooksBench). Each process is charged to the nearest ancestor named in the suite's {@code pids/}
 * files (or this JVM, or a root in {@link #EXTRA_ROOTS}); anything else is {@code other}.
 *
 * <p>Two refinements are switched on by the programs that report them (so each program's numbers stay as they
 * were): {@link #chargeReapedChildren} and {@link #countJvmThreads}.
 */
final class CpuSnapshot {
    static final String CHILDREN = "pgbench/psql (bench)";
    static final String JIT = "JIT compiler threads";
    static final String GC = "GC and VM threads";

    /** Processes the bench starts itself besides the suite (Bench's bare proxy), by pid. */
    static final Map<Long, String> EXTRA_ROOTS = new ConcurrentHashMap<>();
    /**
     * PostsBench: exited children's time (cutime/cstime) counts with the parent that waited for them, so PostgreSQL's
     * backends of short connections (pgbench's, psql's) end up in the postmaster's; this JVM's own children (pgbench,
     * psql), running or reaped, are counted as {@link #CHILDREN}, not as the client.
     */
    static volatile boolean chargeReapedChildren;
    /** PostsBench, WebhooksBench: the ticks of the suite's JVMs' JIT compiler threads and GC/VM threads. */
    static volatile boolean countJvmThreads;

    final Map<String, Long> ticks = new TreeMap<>();
    /** Of the suite's JVMs (services and Kafka): ticks of their JIT compiler threads, and of GC and VM threads. */
    final Map<String, Long> jvmThreads = new TreeMap<>();
    long systemBusy;
    long systemTotal;

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
            roots.putAll(EXTRA_ROOTS);
            boolean reaped = chargeReapedChildren;
            Map<Long, long[]> procs = new HashMap<>(); // pid -> {ppid, ticks}
            try (DirectoryStream<Path> dirs =
                    Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
                for (Path dir : dirs) {
                    try {
                        String stat = Files.readString(dir.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        // f[1] = ppid (field 4), f[11] = utime (14), f[12] = stime (15), f[13] cutime (16), f[14] cstime (17)
                        long pid = Long.parseLong(dir.getFileName().toString());
                        long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                        if (reaped) {
                            long reapedChildren = Long.parseLong(f[13]) + Long.parseLong(f[14]);
                            if (pid == self) {
                                snap.ticks.merge(CHILDREN, reapedChildren, Long::sum);
                            } else {
                                own += reapedChildren;
                            }
                        }
                        procs.put(pid, new long[] {Long.parseLong(f[1]), own});
                    } catch (IOException | RuntimeException gone) {
                        // exited meanwhile
                    }
                }
            }
            for (Map.Entry<Long, long[]> p : procs.entrySet()) {
                String component = component(p.getKey(), roots, procs);
                if (reaped && component.startsWith("bench client") && p.getKey() != self) {
                    component = CHILDREN; // a running pgbench or psql is this JVM's child
                }
                snap.ticks.merge(component, p.getValue()[1], Long::sum);
                if (countJvmThreads
                        && !component.equals("other")
                        && !component.equals("postgres")
                        && !component.equals(CHILDREN)
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

    /** The nearest ancestor of {@code pid} (itself included) named in {@code roots}, else {@code other}. */
    private static String component(long pid, Map<Long, String> roots, Map<Long, long[]> procs) {
        for (int depth = 0; depth < 64 && pid > 1; depth++) {
            String c = roots.get(pid);
            if (c != null) {
                return c;
            }
            long[] info = procs.get(pid);
            if (info == null) {
                break;
            }
            pid = info[0];
        }
        return "other";
    }

    /** Adds the process's JIT compiler and GC/VM thread ticks (by thread name, /proc/<pid>/task/<tid>/comm). */
    private void threadTicks(long pid) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    String kind = comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
                            ? JIT
                            : comm.startsWith("VM Thread") || comm.startsWith("GC Thread") || comm.startsWith("G1 ")
                                    ? GC
                                    : null;
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
        return minus(ticks, before.ticks);
    }

    Map<String, Long> threadsMinus(CpuSnapshot before) {
        return minus(jvmThreads, before.jvmThreads);
    }

    private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((k, v) -> delta.put(k, Math.max(0, v - before.getOrDefault(k, 0L))));
        return delta;
    }

    /**
     * Waits (at most {@code waitIdleSeconds}) until processes outside the suite and this client use under 10% of the
     * machine over 2 s, since on 2 cores any other work (a build, a test run) distorts the measurement. Returns what
     * was seen, for the results; when the machine stays busy, appends a note starting with {@code busyNote}'s text.
     */
    static String waitForQuietMachine(Path state, int waitIdleSeconds, StringBuilder notes, String busyNote)
            throws InterruptedException {
        long deadline = System.nanoTime() + waitIdleSeconds * 1_000_000_000L;
        long waitedFrom = System.nanoTime();
        while (true) {
            CpuSnapshot a = take(state);
            Thread.sleep(2000);
            CpuSnapshot b = take(state);
            Map<String, Long> delta = b.minus(a);
            long total = Math.max(1, b.systemTotal - a.systemTotal);
            long other = delta.getOrDefault("other", 0L);
            long suite = delta.entrySet().stream()
                    .filter(e -> !e.getKey().equals("other")
                            && !e.getKey().startsWith("bench")
                            && !e.getKey().equals(CHILDREN))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            double otherShare = 100.0 * other / total;
            String text = String.format(
                    Locale.ROOT,
                    "before the warm-up, other processes used %.0f%% and the idle suite %.0f%% of the machine",
                    otherShare,
                    100.0 * suite / total);
            if (otherShare < 10) {
                long waited = (System.nanoTime() - waitedFrom) / 1_000_000_000L;
                return text + (waited > 2 ? " (after waiting " + waited + " s for a quiet machine)" : "");
            }
            if (System.nanoTime() > deadline) {
                notes.append("- **The machine was busy with other work** (")
                        .append(text)
                        .append(", still after waiting ")
                        .append(waitIdleSeconds)
                        .append(" s): ")
                        .append(busyNote)
                        .append(" See the `other` row of the CPU table.\n");
                return text + " (gave up waiting after " + waitIdleSeconds + " s)";
            }
            BenchSupport.log("waiting for a quiet machine: " + text);
        }
    }
}
