package dev.herald.accounts.service;

import dev.herald.accounts.messaging.AccountEventOutbox;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/**
 * The health of a connected account as the platform's answers about its grant move it: the one implementation of
 * each health transition (reconnection, which also makes an account healthy, is {@link AccountConnections}; a
 * disconnection is {@link AccountService#disconnect}). Only a definitive answer changes health; a temporary failure
 * only moves the next check. Each change commits with its {@code account.*} event.
 */
@ApplicationScoped
public class AccountHealthChanges {
    /** The platform's reason is kept in full up to this length (an error code and its message). */
    static final int MAX_REASON_LENGTH = 500;

    private final AccountRepository accounts;
    private final AccountEventOutbox events;
    private final ReconnectLinks links;
    private final Clock clock;

    public AccountHealthChanges(
            AccountRepository accounts, AccountEventOutbox events, ReconnectLinks links, Clock clock) {
        this.accounts = accounts;
        this.events = events;
        this.links = links;
        this.clock = clock;
    }

    /**
     * The platform refused the grant for good, or a permission Herald needs is gone: the account turns
     * {@code reauth_required} with the platform's {@code reason}, is no longer checked (only a reconnection can mend
     * it), and {@code account.reauth_required} is recorded with a reconnect link. True when this call changed it; an
     * account already reauth_required, disconnected, or unknown in the tenant is left as it is.
     */
    @WithTransaction
    public Uni<Boolean> reauthRequired(String workspaceId, Mode mode, String accountId, String reason) {
        return accounts.findInTenantForUpdate(workspaceId, mode, accountId).flatMap(account -> {
            if (account == null
                    || !Account.CONNECTED.equals(account.status)
                    || AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus)) {
                return Uni.createFrom().item(false);
            }
            Instant now = Timestamps.now(clock);
            account.healthStatus = AccountHealth.REAUTH_REQUIRED;
            account.healthReason = truncated(reason);
            account.healthCheckedAt = now;
            account.nextCheckAt = null;
            account.checkFailures = 0;
            account.updatedAt = now;
            return accounts.flush()
                    .flatMap(flushed -> events.record(
                            AccountEvent.REAUTH_REQUIRED,
                            workspaceId,
                            mode,
                            AccountViews.toWire(account),
                            account.profileId,
                            links.issue(account, now).url()))
                    .replaceWith(true);
        });
    }

    /**
     * The platform accepted the grant: the answer is recorded and the next check set. An account that was
     * reauth_required (a permission restored at the platform) is healthy again, with {@code account.reconnected}.
     */
    @WithTransaction
    public Uni<Void> answered(String workspaceId, Mode mode, String accountId, Instant nextCheckAt) {
        return accounts.findInTenantForUpdate(workspaceId, mode, accountId).flatMap(account -> {
            if (account == null || !Account.CONNECTED.equals(account.status)) {
                return Uni.createFrom().voidItem();
            }
            Instant now = Timestamps.now(clock);
            boolean mended = AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus);
            account.healthCheckedAt = now;
            account.nextCheckAt = nextCheckAt;
            account.checkFailures = 0;
            if (!mended) {
                return accounts.flush().replaceWithVoid();
            }
            account.healthStatus = AccountHealth.HEALTHY;
            account.healthReason = null;
            account.updatedAt = now;
            return accounts.flush()
                    .flatMap(flushed -> events.record(
                            AccountEvent.RECONNECTED,
                            workspaceId,
                            mode,
                            AccountViews.toWire(account),
                            account.profileId));
        });
    }

    /** A temporary failure (5xx, 429, timeout, network): health stays, the failure is counted, the check retried. */
    @WithTransaction
    public Uni<Void> temporaryFailure(String workspaceId, Mode mode, String accountId, Instant retryAt) {
        return accounts.findInTenantForUpdate(workspaceId, mode, accountId).flatMap(account -> {
            if (account == null || !Account.CONNECTED.equals(account.status)) {
                return Uni.createFrom().voidItem();
            }
            account.checkFailures += 1;
            account.nextCheckAt = retryAt;
            return accounts.flush().replaceWithVoid();
        });
    }

    private static String truncated(String reason) {
        if (reason == null || reason.isBlank()) {
            return "the platform refused the grant";
        }
        String stripped = reason.strip();
        return stripped.length() <= MAX_REASON_LENGTH ? stripped : stripped.substring(0, MAX_REASON_LENGTH);
    }
}
