package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.usage.config.UsageConfig;
import dev.herald.usage.repository.ConnectedAccountRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether a workspace may publish live now given the accounts it has connected (spec section 8, "behavior at a
 * limit" 4): after a downgrade, a cancellation or the end of beta access a workspace may hold more connected
 * live accounts than its plan allows; nothing is disconnected, but new live posts are refused with
 * {@code 409 account_capacity_exceeded}. Test mode has no such refusal: its ten accounts are a hard limit at
 * connection time and never shrink.
 */
@ApplicationScoped
public class AccountCapacity {
    private final ConnectedAccountRepository accounts;
    private final UsageConfig config;

    public AccountCapacity(ConnectedAccountRepository accounts, UsageConfig config) {
        this.accounts = accounts;
        this.config = config;
    }

    /**
     * Fails with {@code 409 account_capacity_exceeded} when a live workspace has more accounts connected than the
     * plan in force at {@code now} allows. Reads committed state without a lock: a connection cannot push the
     * count over the limit (it is refused at the limit), only a plan change can, and that is not a race a post
     * could lose.
     */
    public Uni<Void> require(String workspaceId, Mode mode, SubscriptionState state, Instant now) {
        if (mode != Mode.LIVE) {
            return Uni.createFrom().voidItem();
        }
        long limit = state.allowancesAt(now).connectedAccounts();
        return accounts.count(workspaceId, mode)
                .flatMap(connected -> connected <= limit
                        ? Uni.createFrom().voidItem()
                        : Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.ACCOUNT_CAPACITY_EXCEEDED,
                                        "The workspace has " + connected
                                                + " live accounts connected and its plan allows " + limit
                                                + "; disconnect accounts or upgrade the plan to publish.",
                                        details(mode, state, now, limit, connected))));
    }

    /** The details of {@code account_limit_reached} and {@code account_capacity_exceeded} (spec section 7). */
    Map<String, Object> details(Mode mode, SubscriptionState state, Instant now, long limit, long connected) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mode", mode.wireName());
        details.put("plan", state.termsAt(now).plan().wireName());
        details.put("limit", limit);
        details.put("connected", connected);
        details.put("upgrade_url", config.upgradeUrl());
        return details;
    }
}
