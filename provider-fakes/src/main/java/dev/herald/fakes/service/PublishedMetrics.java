package dev.herald.fakes.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * The numbers every platform fake answers about what it published: a pure function of the item's id,
 * its publication time (as the platform shows it, whole seconds) and the time of the read, so a test can compute them.
 * <p>
 * With {@code k = 1 + s mod 10}, {@code s} the first 8 hex digits of SHA-256 of the platform's id of the item, and
 * {@code n = 1 + } whole minutes since publication: views (impressions) {@code 180·k·n}, reach {@code 135·k·n}, likes
 * {@code 15·k·n}, comments {@code 3·k·n}, shares {@code 2·k·n}, saves {@code 4·k·n}. An account, over the items it
 * published with {@code p} their number and {@code V} the sum of their views: followers {@code 1000 + V / 10},
 * following {@code 100 + p}, posts {@code p}, views {@code V}, likes (a Page's fans) {@code 900 + V / 12}.
 */
public final class PublishedMetrics {

    /** One published item's lifetime numbers. */
    public record Item(long views, long reach, long likes, long comments, long shares, long saves) {}

    /** One account's numbers over the items it published. */
    public record Account(long followers, long following, long posts, long views, long likes) {}

    private PublishedMetrics() {}

    public static Item item(String itemId, Instant publishedAt, Instant now) {
        long k = 1 + seed(itemId) % 10;
        long n = 1 + Math.max(0, Duration.between(publishedAt, now).toMinutes());
        return new Item(180 * k * n, 135 * k * n, 15 * k * n, 3 * k * n, 2 * k * n, 4 * k * n);
    }

    public static Account account(List<Item> items) {
        long views = items.stream().mapToLong(Item::views).sum();
        return new Account(1000 + views / 10, 100 + items.size(), items.size(), views, 900 + views / 12);
    }

    /** The first 8 hex digits of SHA-256 of the id, as a number. */
    static long seed(String itemId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(itemId.getBytes(StandardCharsets.UTF_8));
            return Long.parseLong(HexFormat.of().formatHex(hash, 0, 4), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
