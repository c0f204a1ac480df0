import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * How long a freshly started suite takes to reach its steady rate (issue 40, item 2): from the moment it was ready
 * (the {@code ready} file of its state directory) to the end of the first warm-up chunk from which every chunk
 * accepted at least {@link #WITHIN} of the steady rate. The steady rate is the sustained phase's, measured straight
 * after the warm-up with the same gated loop, or without that phase the mean of the last two chunks. Resolution: one
 * chunk (15 s).
 */
record TimeToSteady(double steadyRate, String steadySource, Duration loadStartedAfterReady, Duration reachedAfterReady,
                    int chunks) {
    static final double WITHIN = 0.9;

    record Chunk(Instant startedAt, Instant endedAt, double rate) {
    }

    /** {@code sustainedRate}: NaN without a sustained phase. */
    static TimeToSteady of(Instant ready, List<Chunk> chunks, double sustainedRate) {
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("no warm-up chunk");
        }
        int n = chunks.size();
        double steady = Double.isNaN(sustainedRate)
                ? (chunks.get(n - 1).rate() + chunks.get(Math.max(0, n - 2)).rate()) / 2
                : sustainedRate;
        String source = Double.isNaN(sustainedRate) ? "the warm-up's last two chunks" : "the sustained phase";
        int first = n;
        while (first > 0 && chunks.get(first - 1).rate() >= WITHIN * steady) {
            first--;
        }
        Duration reached = first == n ? null : Duration.between(ready, chunks.get(first).endedAt());
        return new TimeToSteady(steady, source, Duration.between(ready, chunks.get(0).startedAt()), reached, n);
    }

    /** For the results file. */
    String describe() {
        String start = String.format(Locale.ROOT, "load started %.0f s after ready; steady rate %.0f posts/s (%s); ",
                loadStartedAfterReady.toMillis() / 1000.0, steadyRate, steadySource);
        return start + (reachedAfterReady == null
                ? "**not reached** in the " + chunks + " warm-up chunks (the last one accepted less than " + Math.round(WITHIN * 100) + "% of it)"
                : String.format(Locale.ROOT, "**%.0f s after ready** every 15 s chunk accepted at least %d%% of it",
                        reachedAfterReady.toMillis() / 1000.0, Math.round(WITHIN * 100)));
    }

    /** For the verdict table: the seconds after ready, or that the warm-up never reached the steady rate. */
    String verdictFigure() {
        return reachedAfterReady == null
                ? "not reached in " + chunks * 15 + " s"
                : String.format(Locale.ROOT, "%.0f s", reachedAfterReady.toMillis() / 1000.0);
    }

    boolean met(int seconds) {
        return reachedAfterReady != null && reachedAfterReady.toSeconds() <= seconds;
    }

    /** The computation on made-up chunks; exits 1 when it is wrong (bench/posts-throughput.sh --self-test). */
    static void selfTest() {
        Instant ready = Instant.parse("2026-11-28T12:00:00Z");
        List<Chunk> climbing = List.of(chunk(ready, 20, 28), chunk(ready, 35, 60), chunk(ready, 50, 95), chunk(ready, 65, 104),
                chunk(ready, 80, 99), chunk(ready, 95, 108));
        int failures = 0;
        failures += check("climbing, sustained 110", of(ready, climbing, 110).reachedAfterReady(), Duration.ofSeconds(80));
        // A dip below 90% after reaching it restarts the count: steady means staying there.
        List<Chunk> dipping = List.of(chunk(ready, 20, 100), chunk(ready, 35, 50), chunk(ready, 50, 100), chunk(ready, 65, 100));
        failures += check("dip", of(ready, dipping, Double.NaN).reachedAfterReady(), Duration.ofSeconds(65));
        failures += check("never", of(ready, climbing, 200).reachedAfterReady(), null);
        failures += check("load start", of(ready, climbing, 110).loadStartedAfterReady(), Duration.ofSeconds(20));
        if (failures > 0) {
            System.out.println("time to steady self-test: " + failures + " case(s) FAILED");
            System.exit(1);
        }
        System.out.println("time to steady self-test: all cases passed");
    }

    private static Chunk chunk(Instant ready, int startSecond, double rate) {
        return new Chunk(ready.plusSeconds(startSecond), ready.plusSeconds(startSecond + 15), rate);
    }

    private static int check(String name, Object actual, Object expected) {
        boolean ok = expected == null ? actual == null : expected.equals(actual);
        System.out.println((ok ? "ok     " : "FAILED ") + name + ": " + actual + (ok ? "" : " (expected " + expected + ")"));
        return ok ? 0 : 1;
    }
}
