import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One measured phase of the posts benchmark: what its connections recorded, and its CPU. */
final class Phase {
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
    Map<String, long[]> dbBefore = new TreeMap<>();
    Map<String, long[]> dbWork = new TreeMap<>();
    long[] perSecond = new long[0];
    /** CPU during the load, and from the load's start to the end of the drain. */
    CpuUse load = CpuUse.NONE;

    CpuUse all = CpuUse.NONE;
    // from the database
    double drainSeconds = Double.NaN;
    String drainNote = "";
    PostsPipeline.Published published;

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
                PostsRunState.ms(BenchSupport.pct(s, 0.5)), PostsRunState.ms(BenchSupport.pct(s, 0.99)), BenchSupport.share(load.busy(), load.total()), BenchSupport.share(load.ticks().getOrDefault("other", 0L), load.total()));
    }
}
