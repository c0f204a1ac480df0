package dev.herald.common.wire;

/**
 * The {@code data} of a {@code usage.threshold_reached} webhook event: a monthly meter's units used and reserved in
 * {@code period} reached {@code threshold} percent (80 or 100) of its {@code limit}. Sent once per workspace, mode,
 * meter, period and threshold.
 */
public record UsageThreshold(String meter, int threshold, long used, long reserved, long limit, UsagePeriod period) {
    public static final String EVENT = "usage.threshold_reached";
}
