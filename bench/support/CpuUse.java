import java.util.Map;

/**
 * The CPU used between two {@link CpuSnapshot}s: ticks per component, the machine's total and busy ticks, and the
 * suite's JVM thread ticks (JIT, GC; empty unless {@link CpuSnapshot#countJvmThreads}).
 */
record CpuUse(Map<String, Long> ticks, long total, long busy, Map<String, Long> threads) {
    /** Before a phase has been measured. */
    static final CpuUse NONE = new CpuUse(Map.of(), 0, 0, Map.of());

    static CpuUse between(CpuSnapshot before, CpuSnapshot after) {
        return new CpuUse(
                after.minus(before),
                after.systemTotal - before.systemTotal,
                after.systemBusy - before.systemBusy,
                after.threadsMinus(before));
    }
}
