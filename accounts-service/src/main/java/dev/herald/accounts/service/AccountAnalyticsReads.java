package dev.herald.accounts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.provider.AccountAnalyticsReader;
import dev.herald.accounts.provider.AccountStatistics;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ScopeNotGranted;
import dev.herald.accounts.repository.AccountAnalyticsStatements;
import dev.herald.accounts.repository.AccountAnalyticsStatements.Due;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import io.quarkus.arc.All;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * One account's numbers read afresh and cached, for a customer's read and the refresher alike:
 * the sandbox's in test mode; in live mode the platform's, with the account's current token (a refused token is
 * renewed once). A read that fails keeps the last numbers and records why; a grant without the scope
 * the platform needs is {@code reconnect_required}: only a reconnection grants it, so it is not renewed.
 */
@ApplicationScoped
public class AccountAnalyticsReads {
    private static final Logger LOG = Logger.getLogger(AccountAnalyticsReads.class);

    private final Map<Platform, AccountAnalyticsReader> readers = new EnumMap<>(Platform.class);
    private final ProviderAccessTokens tokens;
    private final AccountAnalyticsStatements cache;
    private final AccountsConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public AccountAnalyticsReads(
            @All List<AccountAnalyticsReader> readers,
            ProviderAccessTokens tokens,
            AccountAnalyticsStatements cache,
            AccountsConfig config,
            ObjectMapper mapper,
            Clock clock) {
        readers.forEach(reader -> this.readers.put(reader.platform(), reader));
        this.tokens = tokens;
        this.cache = cache;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** What a fresh read found: the numbers and when, or why there are none ({@code reason}). */
    public record Fresh(AccountStatistics statistics, Instant readAt, String reason) {
        public boolean read() {
            return statistics != null;
        }
    }

    public Uni<Fresh> read(Due account) {
        Instant now = Timestamps.now(clock);
        Platform platform = Platform.fromWire(account.platform()).orElseThrow();
        if (account.mode() == Mode.TEST) {
            return store(
                    account,
                    SandboxAccountAnalytics.metrics(platform, account.externalId(), account.createdAt(), now),
                    now);
        }
        AccountAnalyticsReader reader = readers.get(platform);
        if (reader == null) {
            return notRead(account, now, AnalyticsReason.PLATFORM_NOT_SUPPORTED);
        }
        return tokens.current(account.workspaceId(), Mode.LIVE, account.accountId(), null)
                .flatMap(access -> reader.read(access.accessToken(), account.externalId())
                        .onFailure(AccountAnalyticsReads::tokenRefused)
                        .recoverWithUni(refused -> tokens.current(
                                        account.workspaceId(),
                                        Mode.LIVE,
                                        account.accountId(),
                                        ProviderAccessTokens.sha256(access.accessToken()))
                                .flatMap(renewed -> reader.read(renewed.accessToken(), account.externalId()))))
                .flatMap(statistics -> store(account, statistics, now))
                .onFailure()
                .recoverWithUni(failure -> {
                    if (failure instanceof ApiException api && api.code() == ErrorCode.CONFLICT) {
                        // A grant refused for good leaves the account connected: reconnecting it mends the numbers.
                        boolean reauth = ProviderAccessTokens.REAUTH_REQUIRED_REASON.equals(
                                api.details().get("reason"));
                        return notRead(
                                account,
                                now,
                                reauth ? AnalyticsReason.RECONNECT_REQUIRED : AnalyticsReason.ACCOUNT_DISCONNECTED);
                    }
                    if (failure instanceof ScopeNotGranted) {
                        // A grant from before Herald asked for the scope: only a reconnection grants it.
                        return notRead(account, now, AnalyticsReason.RECONNECT_REQUIRED);
                    }
                    LOG.infof("analytics of account %s not read: %s", account.accountId(), failure.getMessage());
                    return notRead(account, now, AnalyticsReason.PROVIDER_ERROR);
                });
    }

    /** The refresher leaves the account alone for now (YouTube without analytics consent is never asked). */
    public Uni<Void> postpone(Due account, String reason) {
        Instant now = Timestamps.now(clock);
        return cache.notRead(
                account.accountId(),
                account.workspaceId(),
                account.mode(),
                reason,
                now.plus(config.analytics().refreshEvery()));
    }

    private static boolean tokenRefused(Throwable failure) {
        return failure instanceof ProviderException refused && refused.revoked();
    }

    private Uni<Fresh> store(Due account, AccountStatistics statistics, Instant now) {
        return cache.stored(
                        account.accountId(),
                        account.workspaceId(),
                        account.mode(),
                        write(statistics.metrics()),
                        write(statistics.raw()),
                        now,
                        now.plus(config.analytics().refreshEvery()))
                .replaceWith(new Fresh(statistics, now, null));
    }

    private Uni<Fresh> notRead(Due account, Instant now, String reason) {
        return cache.notRead(
                        account.accountId(),
                        account.workspaceId(),
                        account.mode(),
                        reason,
                        now.plus(config.analytics().refreshEvery()))
                .replaceWith(new Fresh(null, now, reason));
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("analytics could not be cached", e);
        }
    }
}
