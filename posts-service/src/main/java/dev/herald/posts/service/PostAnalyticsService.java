package dev.herald.posts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.CachedRead;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import dev.herald.common.wire.PostAnalytics.Target;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.config.AnalyticsConfig;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.PostAnalyticsStatements;
import dev.herald.posts.repository.PostAnalyticsStatements.Cached;
import dev.herald.posts.repository.PostAnalyticsStatements.Due;
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostTargetRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /posts/{id}/analytics}: each target's numbers, from the cache while fresh, else
 * read afresh ({@link PostAnalyticsReads}) one target after another. The answer is a cache hit (free) unless some
 * target's numbers were read from a platform (or computed by the sandbox) for it.
 */
@ApplicationScoped
public class PostAnalyticsService {

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final PostAnalyticsStatements cache;
    private final PostAnalyticsReads reads;
    private final AccountsClient accounts;
    private final AnalyticsConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public PostAnalyticsService(
            PostRepository posts,
            PostTargetRepository targets,
            PostAnalyticsStatements cache,
            PostAnalyticsReads reads,
            AccountsClient accounts,
            AnalyticsConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.posts = posts;
        this.targets = targets;
        this.cache = cache;
        this.reads = reads;
        this.accounts = accounts;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** A target of the post being answered, with what is cached of it. */
    private record Row(PostTargetEntity target, Cached cached) {}

    public Uni<CachedRead<PostAnalytics>> read(String workspaceId, Mode mode, String postId) {
        Instant freshSince = clock.instant().minus(config.freshness());
        return Panache.withSession(() -> posts.findInTenant(workspaceId, mode, postId)
                        .onItem()
                        .ifNull()
                        .failWith(() -> ApiException.notFound("post"))
                        .chain(() -> targets.forPost(postId)))
                .flatMap(found -> cache.forPost(postId).flatMap(cached -> {
                    List<Row> rows = found.stream()
                            .map(target -> new Row(target, cached.get(target.accountId)))
                            .toList();
                    List<String> wanted = rows.stream()
                            .filter(row -> needsAccount(mode, row, freshSince))
                            .map(row -> row.target().accountId)
                            .distinct()
                            .toList();
                    Uni<Map<String, AccountForPosting>> lookup = wanted.isEmpty()
                            ? Uni.createFrom().item(Map.of())
                            : accounts.lookup(workspaceId, mode, wanted);
                    return lookup.flatMap(known -> Multi.createFrom()
                            .iterable(rows)
                            .onItem()
                            .transformToUniAndConcatenate(row -> answer(workspaceId, mode, row, known, freshSince))
                            .collect()
                            .asList()
                            .map(answers -> new CachedRead<>(
                                    PostAnalytics.of(
                                            postId,
                                            answers.stream().map(Answer::target).toList()),
                                    answers.stream().noneMatch(Answer::readAfresh))));
                }));
    }

    /** One target's part of the answer, and whether it needed a fresh read. */
    private record Answer(Target target, boolean readAfresh) {}

    /** The account is asked for when consent decides (YouTube) or when a platform is about to be called. */
    private boolean needsAccount(Mode mode, Row row, Instant freshSince) {
        if (!isPublished(row.target())) {
            return false;
        }
        Platform platform = Platform.fromWire(row.target().platform).orElseThrow();
        // Only for a platform Herald reads: a lookup of a live TikTok account would read its creator info for nothing.
        return platform == Platform.YOUTUBE
                || (mode == Mode.LIVE && !fresh(row.cached(), freshSince) && reads.readable(mode, platform));
    }

    private Uni<Answer> answer(
            String workspaceId, Mode mode, Row row, Map<String, AccountForPosting> known, Instant freshSince) {
        PostTargetEntity target = row.target();
        Platform platform = Platform.fromWire(target.platform).orElseThrow();
        if (!isPublished(target)) {
            String status = PostTarget.FAILED.equals(target.status) || PostTarget.CANCELED.equals(target.status)
                    ? Target.UNAVAILABLE
                    : Target.PENDING;
            String reason = switch (target.status) {
                case PostTarget.FAILED -> AnalyticsReason.TARGET_FAILED;
                case PostTarget.CANCELED -> AnalyticsReason.TARGET_CANCELED;
                default -> AnalyticsReason.NOT_PUBLISHED_YET;
            };
            return done(
                    new Target(target.accountId, platform, target.providerPostId, status, reason, null, null, null));
        }
        AccountForPosting found = known.get(target.accountId);
        Account account = found == null ? null : found.account();
        if (platform == Platform.YOUTUBE && !consented(account)) {
            return done(new Target(
                    target.accountId,
                    platform,
                    target.providerPostId,
                    Target.REDACTED,
                    AnalyticsReason.CONSENT_REQUIRED,
                    null,
                    null,
                    null));
        }
        if (fresh(row.cached(), freshSince)) {
            return done(cached(target, platform, row.cached()));
        }
        if (!reads.readable(mode, platform)) {
            return done(new Target(
                    target.accountId,
                    platform,
                    target.providerPostId,
                    Target.UNAVAILABLE,
                    AnalyticsReason.PLATFORM_NOT_SUPPORTED,
                    null,
                    null,
                    null));
        }
        Due due = new Due(
                target.postId,
                target.accountId,
                workspaceId,
                mode,
                target.platform,
                target.providerPostId,
                target.completedAt);
        return reads.read(due, account).map(fresh -> {
            if (fresh.read()) {
                return new Answer(
                        new Target(
                                target.accountId,
                                platform,
                                target.providerPostId,
                                Target.AVAILABLE,
                                null,
                                fresh.metrics().metrics(),
                                fresh.metrics().raw(),
                                fresh.readAt()),
                        true);
            }
            // The last numbers stay the answer (refreshed_at shows their age); without any, the reason is.
            if (row.cached() != null && row.cached().refreshedAt() != null) {
                return new Answer(cached(target, platform, row.cached()), false);
            }
            return new Answer(
                    new Target(
                            target.accountId,
                            platform,
                            target.providerPostId,
                            Target.UNAVAILABLE,
                            fresh.reason(),
                            null,
                            null,
                            null),
                    false);
        });
    }

    /** Consent on record for the account's current authorization (accounts-service clears it on re-authorization). */
    public static boolean consented(Account account) {
        return account != null
                && account.analyticsConsent() != null
                && Account.AnalyticsConsent.ACCEPTED.equals(
                        account.analyticsConsent().status());
    }

    private static boolean isPublished(PostTargetEntity target) {
        return PostTarget.PUBLISHED.equals(target.status) && target.providerPostId != null;
    }

    private static boolean fresh(Cached cached, Instant freshSince) {
        return cached != null
                && cached.refreshedAt() != null
                && !cached.refreshedAt().isBefore(freshSince);
    }

    private Target cached(PostTargetEntity target, Platform platform, Cached cached) {
        try {
            return new Target(
                    target.accountId,
                    platform,
                    target.providerPostId,
                    Target.AVAILABLE,
                    null,
                    mapper.readValue(cached.metrics(), PostAnalytics.Metrics.class),
                    mapper.readTree(cached.raw()),
                    cached.refreshedAt());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cached analytics could not be read", e);
        }
    }

    private static Uni<Answer> done(Target target) {
        return Uni.createFrom().item(new Answer(target, false));
    }
}
