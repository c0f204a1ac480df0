package dev.herald.posts.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.sandbox.SandboxSeed;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import dev.herald.posts.provider.ProviderMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Test-mode post analytics, never a call: a pure function of the simulated post id and the whole minutes since the
 * target was published, so tests can predict every number and watch them grow. With {@code s} the first 8 hex digits
 * of SHA-256(provider_post_id) as an unsigned number and {@code m} the minutes since publication (0 to 43,200: numbers
 * stop growing after 30 days): views = m * (1 + s mod 10), reach = views * 3 / 4, likes = views / 12,
 * comments = views / 60, shares = views / 90, saves = views / 45 (integer division), each null where the platform
 * does not report it (the live readers' columns).
 */
public final class SandboxPostAnalytics {
    static final long MAX_MINUTES = Duration.ofDays(30).toMinutes();

    /** The metrics each platform reports: views, likes, comments, shares, saves, reach. */
    enum Metric {
        VIEWS,
        LIKES,
        COMMENTS,
        SHARES,
        SAVES,
        REACH
    }

    private static final Map<Platform, Set<Metric>> REPORTED = Map.of(
            Platform.FACEBOOK, EnumSet.of(Metric.VIEWS, Metric.LIKES, Metric.COMMENTS, Metric.SHARES, Metric.REACH),
            Platform.INSTAGRAM, EnumSet.allOf(Metric.class),
            Platform.YOUTUBE, EnumSet.of(Metric.VIEWS, Metric.LIKES, Metric.COMMENTS),
            Platform.TIKTOK, EnumSet.of(Metric.VIEWS, Metric.LIKES, Metric.COMMENTS, Metric.SHARES),
            Platform.PINTEREST, EnumSet.of(Metric.VIEWS, Metric.SAVES),
            Platform.LINKEDIN, EnumSet.of(Metric.LIKES, Metric.COMMENTS));

    private SandboxPostAnalytics() {}

    public static ProviderMetrics metrics(Platform platform, String providerPostId, Instant publishedAt, Instant now) {
        long minutes = Math.max(
                0, Math.min(MAX_MINUTES, Duration.between(publishedAt, now).toMinutes()));
        long views = minutes * (1 + SandboxSeed.of(providerPostId) % 10);
        Set<Metric> reported = REPORTED.get(platform);
        ObjectNode raw =
                JsonNodeFactory.instance.objectNode().put("simulated", true).put("minutes_since_publication", minutes);
        return new ProviderMetrics(
                new PostAnalytics.Metrics(
                        only(reported, Metric.VIEWS, views), only(reported, Metric.LIKES, views / 12),
                        only(reported, Metric.COMMENTS, views / 60), only(reported, Metric.SHARES, views / 90),
                        only(reported, Metric.SAVES, views / 45), only(reported, Metric.REACH, views * 3 / 4)),
                raw);
    }

    private static Long only(Set<Metric> reported, Metric metric, long value) {
        return reported.contains(metric) ? value : null;
    }
}
