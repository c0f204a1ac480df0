package dev.herald.posts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import dev.herald.posts.config.AnalyticsConfig;
import dev.herald.posts.provider.AnalyticsReader;
import dev.herald.posts.provider.AnalyticsReaders;
import dev.herald.posts.provider.ProviderMetrics;
import dev.herald.posts.provider.ScopeNotGranted;
import dev.herald.posts.repository.PostAnalyticsStatements;
import dev.herald.posts.repository.PostAnalyticsStatements.Due;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * One target's numbers read afresh and cached, for a customer's read and for the refresher
 * alike: the sandbox's in test mode, the platform's through its reader in live mode (as the account, its token renewed
 * once when refused). A read that fails keeps the last numbers and records why.
 */
@ApplicationScoped
public class PostAnalyticsReads {
    private static final Logger LOG = Logger.getLogger(PostAnalyticsReads.class);

    private final AnalyticsReaders readers;
    private final ActingAccounts actingAccounts;
    private final PostAnalyticsStatements cache;
    private final AnalyticsConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public PostAnalyticsReads(
            AnalyticsReaders readers,
            ActingAccounts actingAccounts,
            PostAnalyticsStatements cache,
            AnalyticsConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.readers = readers;
        this.actingAccounts = actingAccounts;
        this.cache = cache;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** What a fresh read found: the numbers and when, or why there are none ({@code reason}). */
    public record Fresh(ProviderMetrics metrics, Instant readAt, String reason) {
        public boolean read() {
            return metrics != null;
        }
    }

    /** Whether live numbers of the platform can be read at all. */
    public boolean readable(Mode mode, Platform platform) {
        return mode == Mode.TEST || readers.forPlatform(platform).isPresent();
    }

    /**
     * Reads the target's numbers now and caches them. {@code account} is the target's account as accounts-service
     * knows it (null when it no longer exists); it is not needed in test mode.
     */
    public Uni<Fresh> read(Due target, Account account) {
        Instant now = Timestamps.now(clock);
        Platform platform = Platform.fromWire(target.platform()).orElseThrow();
        if (target.mode() == Mode.TEST) {
            return store(
                    target,
                    SandboxPostAnalytics.metrics(platform, target.providerPostId(), target.publishedAt(), now),
                    now);
        }
        Optional<AnalyticsReader> reader = readers.forPlatform(platform);
        if (reader.isEmpty()) {
            return notRead(target, now, AnalyticsReason.PLATFORM_NOT_SUPPORTED);
        }
        if (account == null || !Account.CONNECTED.equals(account.status())) {
            return notRead(target, now, AnalyticsReason.ACCOUNT_DISCONNECTED);
        }
        return actingAccounts
                .acting(target.workspaceId(), account)
                .flatMap(acting -> actingAccounts.renewingOnce(
                        target.workspaceId(),
                        acting,
                        platform,
                        as -> reader.get().read(as, target.providerPostId())))
                .flatMap(metrics -> store(target, metrics, now))
                .onFailure()
                .recoverWithUni(failure -> {
                    if (ActingAccounts.cannotActAs(failure)) {
                        return notRead(target, now, AnalyticsReason.ACCOUNT_DISCONNECTED);
                    }
                    if (failure instanceof ScopeNotGranted) {
                        // A grant from before Herald asked for the scope: only a reconnection grants it, so no renewal.
                        return notRead(target, now, AnalyticsReason.RECONNECT_REQUIRED);
                    }
                    LOG.infof(
                            "analytics of post %s on account %s not read: %s",
                            target.postId(), target.accountId(), failure.getMessage());
                    boolean limited =
                            failure instanceof ApiException api && api.code() == ErrorCode.SERVICE_UNAVAILABLE;
                    return notRead(
                            target, now, limited ? AnalyticsReason.RATE_LIMITED : AnalyticsReason.PROVIDER_ERROR);
                });
    }

    /** The refresher leaves a target alone for now (YouTube without analytics consent is never asked). */
    public Uni<Void> postpone(Due target, String reason) {
        return cache.notRead(
                target.postId(),
                target.accountId(),
                target.workspaceId(),
                target.mode(),
                reason,
                nextRefresh(target, Timestamps.now(clock)));
    }

    private Uni<Fresh> store(Due target, ProviderMetrics metrics, Instant now) {
        return cache.stored(
                        target.postId(),
                        target.accountId(),
                        target.workspaceId(),
                        target.mode(),
                        write(metrics.metrics()),
                        write(metrics.raw()),
                        now,
                        nextRefresh(target, now))
                .replaceWith(new Fresh(metrics, now, null));
    }

    private Uni<Fresh> notRead(Due target, Instant now, String reason) {
        return cache.notRead(
                        target.postId(),
                        target.accountId(),
                        target.workspaceId(),
                        target.mode(),
                        reason,
                        nextRefresh(target, now))
                .replaceWith(new Fresh(null, now, reason));
    }

    /** The refresher's next read; none once the post is older than the tracking period. */
    private Instant nextRefresh(Due target, Instant now) {
        Instant next = now.plus(config.refreshEvery());
        return target.publishedAt() != null && next.isAfter(target.publishedAt().plus(config.trackFor())) ? null : next;
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("analytics could not be cached", e);
        }
    }
}
