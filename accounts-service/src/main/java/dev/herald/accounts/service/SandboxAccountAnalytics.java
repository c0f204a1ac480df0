package dev.herald.accounts.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.common.sandbox.SandboxSeed;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.Platform;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Test-mode account analytics, never a call: a pure function of the sandbox account's simulated provider id and
 * the whole minutes since the account was created. With {@code s} the first 8 hex digits of SHA-256(external id) as
 * an unsigned number and {@code m} those minutes (0 to 525,600: numbers stop growing after a year):
 * followers = 100 + (m / 60) * (1 + s mod 5), following = 10 + s mod 90, posts = m / 1440,
 * views = m * (1 + s mod 10), likes = views / 12 (integer division), each null where the platform's live reader
 * reports none (TikTok and LinkedIn: as their APIs document, though Herald reads neither live yet).
 */
public final class SandboxAccountAnalytics {
    static final long MAX_MINUTES = Duration.ofDays(365).toMinutes();

    enum Metric {
        FOLLOWERS,
        FOLLOWING,
        POSTS,
        VIEWS,
        LIKES
    }

    private static final Map<Platform, Set<Metric>> REPORTED = Map.of(
            Platform.YOUTUBE, EnumSet.of(Metric.FOLLOWERS, Metric.POSTS, Metric.VIEWS),
            Platform.FACEBOOK, EnumSet.of(Metric.FOLLOWERS, Metric.LIKES),
            Platform.INSTAGRAM, EnumSet.of(Metric.FOLLOWERS, Metric.FOLLOWING, Metric.POSTS),
            Platform.PINTEREST, EnumSet.of(Metric.FOLLOWERS, Metric.FOLLOWING, Metric.POSTS, Metric.VIEWS),
            Platform.TIKTOK, EnumSet.of(Metric.FOLLOWERS, Metric.FOLLOWING, Metric.POSTS, Metric.LIKES),
            Platform.LINKEDIN, EnumSet.of(Metric.FOLLOWERS));

    private SandboxAccountAnalytics() {}

    public static AccountStatistics metrics(Platform platform, String externalId, Instant createdAt, Instant now) {
        long minutes = Math.max(
                0, Math.min(MAX_MINUTES, Duration.between(createdAt, now).toMinutes()));
        long seed = SandboxSeed.of(externalId);
        long views = minutes * (1 + seed % 10);
        Set<Metric> reported = REPORTED.get(platform);
        ObjectNode raw =
                JsonNodeFactory.instance.objectNode().put("simulated", true).put("minutes_since_creation", minutes);
        return new AccountStatistics(
                new AccountAnalytics.Metrics(
                        only(reported, Metric.FOLLOWERS, 100 + (minutes / 60) * (1 + seed % 5)),
                        only(reported, Metric.FOLLOWING, 10 + seed % 90),
                        only(reported, Metric.POSTS, minutes / 1440),
                        only(reported, Metric.VIEWS, views),
                        only(reported, Metric.LIKES, views / 12)),
                raw);
    }

    private static Long only(Set<Metric> reported, Metric metric, long value) {
        return reported.contains(metric) ? value : null;
    }
}
