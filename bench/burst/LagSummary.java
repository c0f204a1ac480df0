import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One mode's outcome (the burst, or the steady rate): how many of its posts were published, failed or not final at
 * its deadline, and the lag percentiles over every post it should have had. A post not published by the deadline (or
 * never accepted, or not listed by the API) counts as later than any published one, so a percentile that falls on it
 * reads "> deadline" rather than flattering the rest.
 */
final class LagSummary {
    final List<Outcomes.Outcome> outcomes;
    final Instant deadline;
    final long published;
    final long failed;
    final long notFinal;
    /** Posts the mode should have had but the API did not list (not accepted, or lost). */
    final long missing;
    /** Lags in milliseconds, ascending; +infinity for a post not published by the deadline. */
    final double[] lags;
    final double[] visibleLags;

    /** {@code expected}: how many posts the mode should have had (the burst's --posts; the steady mode's accepted posts). */
    LagSummary(List<Outcomes.Outcome> outcomes, Instant deadline, long expected) {
        this.outcomes = outcomes;
        this.deadline = deadline;
        long p = 0;
        long f = 0;
        missing = Math.max(0, expected - outcomes.size());
        lags = new double[(int) (outcomes.size() + missing)];
        visibleLags = new double[lags.length];
        Arrays.fill(lags, Double.POSITIVE_INFINITY);
        Arrays.fill(visibleLags, Double.POSITIVE_INFINITY);
        for (int i = 0; i < outcomes.size(); i++) {
            Outcomes.Outcome o = outcomes.get(i);
            boolean inTime = o.published() && !o.completedAt().isAfter(deadline);
            if (inTime) {
                p++;
            } else if (o.failed() && o.completedAt() != null && !o.completedAt().isAfter(deadline)) {
                f++;
            }
            lags[i] = inTime ? o.lagMillis() : Double.POSITIVE_INFINITY;
            visibleLags[i] = inTime ? o.visibleLagMillis() : Double.POSITIVE_INFINITY;
        }
        Arrays.sort(lags);
        Arrays.sort(visibleLags);
        published = p;
        failed = f;
        notFinal = outcomes.size() - p - f;
    }

    /** Nearest-rank percentile {@code q} of the lags in milliseconds (NaN when there are none). */
    double pct(double q) {
        return pct(lags, q);
    }

    static double pct(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    double max() {
        return lags.length == 0 ? Double.NaN : lags[lags.length - 1];
    }

    /** Lag in seconds with {@code decimals}, or "> deadline" for a post not published in time. */
    static String seconds(double millis, int decimals) {
        if (Double.isNaN(millis)) {
            return "-";
        }
        if (Double.isInfinite(millis)) {
            return "> deadline";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f s", millis / 1000);
    }

    /** Met when the percentile is known and at most {@code limitMillis}. */
    static boolean within(double millis, double limitMillis) {
        return !Double.isNaN(millis) && millis <= limitMillis;
    }
}
