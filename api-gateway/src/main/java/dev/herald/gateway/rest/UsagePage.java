package dev.herald.gateway.rest;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.PlanAllowances;
import dev.herald.common.wire.Usage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What the usage page shows, worked out from {@code GET /usage}, the request logs per day and the plan catalog:
 * numbers already formatted and bar widths as percentages (the page draws them as SVG, which the CSP allows).
 */
public record UsagePage(
        Usage usage, List<MeterRow> meters, List<DayBar> days, String chartViewBox, long busiestDay, Plans plans) {

    /** One bar: {@code metered} false for a meter test mode does not limit (null in {@code GET /usage}). */
    public record MeterRow(
            String id,
            String label,
            boolean metered,
            String used,
            String reserved,
            String limit,
            String remaining,
            Instant resetAt,
            String usedWidth,
            String reservedWidth) {}

    /** A day of the period in the chart: its bar's place ({@code x}, {@code y}, {@code height}) in the viewBox. */
    public record DayBar(LocalDate day, long requests, int x, int labelX, String y, String height, String label) {}

    /** The current plan's allowances beside the next plan's ({@code next} null at the top of the catalog). */
    public record Plans(String current, String next, List<PlanRow> rows, boolean available) {
        static Plans unavailable() {
            return new Plans(null, null, List.of(), false);
        }
    }

    public record PlanRow(String label, String current, String next) {}

    static final int DAY_WIDTH = 10;
    static final int CHART_HEIGHT = 100;

    static UsagePage of(Usage usage, Map<LocalDate, Long> perDay, LocalDate today, List<PlanAllowances> catalog) {
        List<MeterRow> meters = new ArrayList<>();
        Usage.Accounts accounts = usage.accounts();
        meters.add(meter(
                "accounts",
                "Connected accounts",
                new Usage.Meter(accounts.used(), 0, accounts.limit(), accounts.remaining(), null),
                UsagePage::count));
        meters.add(meter("publications", "Publications", usage.publications(), UsagePage::count));
        meters.add(meter("api_requests", "API requests", usage.apiRequests(), UsagePage::count));
        meters.add(meter("media_bytes", "Media", usage.mediaBytes(), UsagePage::bytes));
        meters.add(meter("comment_requests", "Comment requests", usage.commentRequests(), UsagePage::count));
        meters.add(meter("new_connections", "New connections", usage.newConnections(), UsagePage::count));

        LocalDate first = usage.period().start().atZone(ZoneOffset.UTC).toLocalDate();
        LocalDate lastOfPeriod =
                usage.period().end().minusNanos(1).atZone(ZoneOffset.UTC).toLocalDate();
        LocalDate last = today.isBefore(lastOfPeriod) ? today : lastOfPeriod;
        long busiest = perDay.values().stream().mapToLong(Long::longValue).max().orElse(0);
        List<DayBar> days = new ArrayList<>();
        int index = 0;
        for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1), index++) {
            long requests = perDay.getOrDefault(day, 0L);
            double height = busiest == 0 ? 0 : (double) requests * CHART_HEIGHT / busiest;
            boolean labelled = index % 5 == 0 || day.equals(last);
            days.add(new DayBar(
                    day,
                    requests,
                    index * DAY_WIDTH + 1,
                    index * DAY_WIDTH + DAY_WIDTH / 2,
                    decimal(CHART_HEIGHT - height),
                    decimal(height),
                    labelled ? String.valueOf(day.getDayOfMonth()) : null));
        }
        String viewBox = "0 0 " + Math.max(days.size(), 1) * DAY_WIDTH + " " + (CHART_HEIGHT + 14);
        return new UsagePage(usage, meters, days, viewBox, busiest, plans(usage, catalog));
    }

    private static MeterRow meter(String id, String label, Usage.Meter meter, Function<Long, String> format) {
        if (meter == null) {
            return new MeterRow(id, label, false, null, null, null, null, null, "0", "0");
        }
        return new MeterRow(
                id,
                label,
                true,
                format.apply(meter.used()),
                format.apply(meter.reserved()),
                format.apply(meter.limit()),
                format.apply(meter.remaining()),
                meter.resetAt(),
                percent(meter.used(), meter.limit()),
                percent(Math.min(meter.reserved(), Math.max(meter.limit() - meter.used(), 0)), meter.limit()));
    }

    private static Plans plans(Usage usage, List<PlanAllowances> catalog) {
        for (int i = 0; i < catalog.size(); i++) {
            if (catalog.get(i).plan().equals(usage.plan())) {
                PlanAllowances current = catalog.get(i);
                PlanAllowances next = i + 1 < catalog.size() ? catalog.get(i + 1) : null;
                String unlimited = usage.mode() == Mode.TEST ? "not limited in test mode" : "unlimited";
                List<PlanRow> rows = List.of(
                        row("Connected accounts", current, next, p -> count(p.connectedAccounts())),
                        row("Publications a month", current, next, p -> count(p.publications())),
                        row("API requests a month", current, next, p -> count(p.apiRequests())),
                        row("Media a month", current, next, p -> orElse(p.mediaBytes(), UsagePage::bytes, unlimited)),
                        row(
                                "Comment requests a month",
                                current,
                                next,
                                p -> orElse(p.commentRequests(), UsagePage::count, unlimited)),
                        row(
                                "New connections a month",
                                current,
                                next,
                                p -> orElse(p.newConnections(), UsagePage::count, unlimited)),
                        row(
                                "Requests per minute",
                                current,
                                next,
                                p -> count(p.rateLimit().perMinute())),
                        row("Concurrent media ingests", current, next, p -> count(p.concurrentIngests())));
                return new Plans(current.plan(), next == null ? null : next.plan(), rows, true);
            }
        }
        return Plans.unavailable();
    }

    private static PlanRow row(
            String label, PlanAllowances current, PlanAllowances next, Function<PlanAllowances, String> value) {
        return new PlanRow(label, value.apply(current), next == null ? null : value.apply(next));
    }

    private static String orElse(Long value, Function<Long, String> format, String absent) {
        return value == null ? absent : format.apply(value);
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** Decimal gigabytes, as the plan catalog counts media (1 GB = 10^9 bytes). */
    static String bytes(long value) {
        BigDecimal gigabytes =
                BigDecimal.valueOf(value).divide(BigDecimal.valueOf(1_000_000_000L), 2, RoundingMode.HALF_UP);
        return gigabytes.stripTrailingZeros().toPlainString() + " GB";
    }

    /** A share of {@code limit} as a bar width of 0 to 100. */
    static String percent(long part, long limit) {
        if (limit <= 0) {
            return part > 0 ? "100" : "0";
        }
        return decimal(Math.min(100.0, 100.0 * part / limit));
    }

    private static String decimal(double value) {
        return BigDecimal.valueOf(value)
                .setScale(1, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }
}
