package dev.herald.accounts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.repository.AccountAnalyticsStatements;
import dev.herald.accounts.repository.AccountAnalyticsStatements.Cached;
import dev.herald.accounts.repository.AccountAnalyticsStatements.Due;
import dev.herald.common.api.CachedRead;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics.Target;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/**
 * {@code GET /accounts/{id}/analytics}: the account's numbers from the cache while fresh, else
 * read afresh ({@link AccountAnalyticsReads}). Only an answer that needed a fresh read counts; a disconnected account,
 * a redacted YouTube account and a failed read are free.
 */
@ApplicationScoped
public class AccountAnalyticsService {
    private final AccountService accounts;
    private final AccountAnalyticsStatements cache;
    private final AccountAnalyticsReads reads;
    private final AccountsConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public AccountAnalyticsService(
            AccountService accounts,
            AccountAnalyticsStatements cache,
            AccountAnalyticsReads reads,
            AccountsConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.accounts = accounts;
        this.cache = cache;
        this.reads = reads;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    public Uni<CachedRead<AccountAnalytics>> read(String workspaceId, Mode mode, String id) {
        Instant freshSince = clock.instant().minus(config.analytics().freshness());
        return Panache.withSession(() -> accounts.findOrFail(workspaceId, mode, id))
                .flatMap(account -> {
                    Platform platform = Platform.fromWire(account.platform).orElseThrow();
                    if (!Account.CONNECTED.equals(account.status)) {
                        return free(none(account, platform, Target.UNAVAILABLE, AnalyticsReason.ACCOUNT_DISCONNECTED));
                    }
                    if (platform == Platform.YOUTUBE && account.consentAcceptedAt == null) {
                        return free(none(account, platform, Target.REDACTED, AnalyticsReason.CONSENT_REQUIRED));
                    }
                    return cache.find(account.id).flatMap(cached -> {
                        if (cached != null && !cached.refreshedAt().isBefore(freshSince)) {
                            return free(fromCache(account, platform, cached));
                        }
                        return reads.read(due(account)).map(fresh -> {
                            if (fresh.read()) {
                                return new CachedRead<>(
                                        new AccountAnalytics(
                                                AccountAnalytics.OBJECT,
                                                account.id,
                                                platform,
                                                Target.AVAILABLE,
                                                null,
                                                fresh.statistics().metrics(),
                                                fresh.statistics().raw(),
                                                fresh.readAt()),
                                        false);
                            }
                            // The last numbers stay the answer (refreshed_at shows their age); without any, the reason
                            // is.
                            return new CachedRead<>(
                                    cached != null
                                            ? fromCache(account, platform, cached)
                                            : none(account, platform, Target.UNAVAILABLE, fresh.reason()),
                                    true);
                        });
                    });
                });
    }

    private static Due due(AccountEntity account) {
        return new Due(
                account.id,
                account.workspaceId,
                Mode.fromWire(account.mode).orElseThrow(),
                account.platform,
                account.externalId,
                account.createdAt,
                account.consentAcceptedAt != null);
    }

    private static AccountAnalytics none(AccountEntity account, Platform platform, String status, String reason) {
        return new AccountAnalytics(AccountAnalytics.OBJECT, account.id, platform, status, reason, null, null, null);
    }

    private AccountAnalytics fromCache(AccountEntity account, Platform platform, Cached cached) {
        try {
            return new AccountAnalytics(
                    AccountAnalytics.OBJECT,
                    account.id,
                    platform,
                    Target.AVAILABLE,
                    null,
                    mapper.readValue(cached.metrics(), AccountAnalytics.Metrics.class),
                    mapper.readTree(cached.raw()),
                    cached.refreshedAt());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cached analytics could not be read", e);
        }
    }

    private static Uni<CachedRead<AccountAnalytics>> free(AccountAnalytics analytics) {
        return Uni.createFrom().item(new CachedRead<>(analytics, true));
    }
}
