package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.AccountSlot;
import dev.herald.usage.catalog.Allowances;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.repository.ConnectedAccountRepository;
import dev.herald.usage.repository.SubscriptionRepository;
import dev.herald.usage.repository.UsageMeterRepository;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * Connected-account slots (spec section 8: connected accounts, new connections). Taking a slot checks the
 * plan's connected-account limit and, for a new connection, the month's new-connection allowance, under one
 * lock per workspace and mode, so concurrent connections can never overshoot either; a refusal changes
 * nothing. An account that already holds a slot keeps it for free (re-authorization).
 */
@ApplicationScoped
public class ConnectedAccountService {
    private final ConnectedAccountRepository accounts;
    private final SubscriptionRepository subscriptions;
    private final UsageMeterRepository meters;
    private final UsageLimitRefusal refusal;
    private final AccountCapacity capacity;
    private final Clock clock;

    public ConnectedAccountService(
            ConnectedAccountRepository accounts,
            SubscriptionRepository subscriptions,
            UsageMeterRepository meters,
            UsageLimitRefusal refusal,
            AccountCapacity capacity,
            Clock clock) {
        this.accounts = accounts;
        this.subscriptions = subscriptions;
        this.meters = meters;
        this.refusal = refusal;
        this.capacity = capacity;
        this.clock = clock;
    }

    /** The slot the account holds now, and whether this call took it ({@code created}). */
    public record SlotOutcome(AccountSlot slot, boolean created) {}

    @WithTransaction
    public Uni<SlotOutcome> connect(String workspaceId, Mode mode, String accountId, boolean newConnection) {
        Instant now = Timestamps.now(clock);
        return accounts.lockTenant(workspaceId, mode)
                .flatMap(locked -> subscriptions.findInTenant(workspaceId, mode))
                .flatMap(row -> {
                    SubscriptionState state = SubscriptionState.of(mode, row);
                    Allowances allowances = state.allowancesAt(now);
                    long limit = allowances.connectedAccounts();
                    return accounts.count(workspaceId, mode)
                            .flatMap(connected -> accounts.contains(workspaceId, mode, accountId)
                                    .flatMap(holds -> {
                                        if (holds) {
                                            return Uni.createFrom()
                                                    .item(new SlotOutcome(
                                                            new AccountSlot(accountId, connected, limit), false));
                                        }
                                        if (connected >= limit) {
                                            return Uni.createFrom()
                                                    .failure(limitReached(mode, state, now, limit, connected));
                                        }
                                        return chargeNewConnection(workspaceId, mode, state, now, newConnection)
                                                .flatMap(charged -> accounts.add(workspaceId, mode, accountId))
                                                .map(added -> new SlotOutcome(
                                                        new AccountSlot(accountId, connected + 1, limit), true));
                                    }));
                });
    }

    /** Frees the account's slot; freeing one it does not hold changes nothing. */
    @WithTransaction
    public Uni<Void> disconnect(String workspaceId, Mode mode, String accountId) {
        return accounts.lockTenant(workspaceId, mode).flatMap(locked -> accounts.remove(workspaceId, mode, accountId));
    }

    /**
     * One unit of the period's new connections, used at once (a connection is complete when it is made).
     * Test mode has no new-connection allowance (spec: its meter is null), so nothing is counted there.
     */
    private Uni<Void> chargeNewConnection(
            String workspaceId, Mode mode, SubscriptionState state, Instant now, boolean newConnection) {
        Long limit = Meter.NEW_CONNECTIONS.limitIn(state.allowancesAt(now));
        if (!newConnection || limit == null) {
            return Uni.createFrom().voidItem();
        }
        return meters.lockOrCreate(workspaceId, mode, Meter.NEW_CONNECTIONS, state.periodAt(now), now)
                .flatMap(meter -> {
                    if (meter.used + meter.reserved + 1 > limit) {
                        return Uni.createFrom()
                                .failure(refusal.limitExceeded(
                                        mode, state, now, now, Meter.NEW_CONNECTIONS, limit, meter));
                    }
                    meter.used += 1;
                    meter.updatedAt = now;
                    return meters.flush();
                });
    }

    private ApiException limitReached(Mode mode, SubscriptionState state, Instant now, long limit, long connected) {
        Map<String, Object> details = capacity.details(mode, state, now, limit, connected);
        String message = mode == Mode.TEST
                ? "A test workspace holds at most " + limit + " connected simulated accounts; disconnect one first."
                : "The plan allows " + limit + " connected accounts; disconnect one or upgrade the plan.";
        return new ApiException(ErrorCode.ACCOUNT_LIMIT_REACHED, message, details);
    }
}
