package dev.herald.delivery.service;

import dev.herald.common.wire.TargetError;
import dev.herald.delivery.model.LeasedDelivery.HeldAccount;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What becomes of a due delivery whose account needs re-authorization (docs/connection-health.md): it waits,
 * {@code queued} for the customer, until the account is reconnected or {@code hold} after the target fell due, then
 * fails with {@code account_reauth_required}. A waiting delivery is looked at again every {@code recheck} (or at the deadline, if that
 * comes first) even without a reconnection event: a live account's hold may come from accounts-service's refusal
 * alone, which no event clears. A pure decision: {@link DeliveryAttempts} acts on it.
 *
 * @param hold    how long after its due time a target waits ({@code herald.delivery.reauth-hold})
 * @param recheck the longest wait between two looks at a held target ({@code herald.delivery.reauth-recheck})
 */
record ReauthHold(Duration hold, Duration recheck) {

    /**
     * What to do: {@link #proceeds} (the account is not held: attempt as usual), or wait until {@link #waitUntil} (look
     * again then), or fail now with {@link #error}.
     */
    record Decision(boolean proceeds, Instant waitUntil, TargetError error) {
        static final Decision PROCEED = new Decision(true, null, null);

        boolean waits() {
            return waitUntil != null;
        }
    }

    /**
     * The decision for a target of account {@code accountId} due at {@code dueAt}, whose account is {@code held} (null
     * when it is not: reconnected, or never broken).
     */
    Decision decide(Instant dueAt, Instant now, String accountId, HeldAccount held) {
        if (held == null) {
            return Decision.PROCEED;
        }
        Instant deadline = dueAt.plus(hold);
        if (!now.isBefore(deadline)) {
            return new Decision(false, null, error(accountId, held.reconnectUrl()));
        }
        Instant nextLook = now.plus(recheck);
        return new Decision(false, nextLook.isBefore(deadline) ? nextLook : deadline, null);
    }

    /** The target's final error: not retryable, since only the customer's reconnection mends it. */
    static TargetError error(String accountId, String reconnectUrl) {
        return new TargetError(
                TargetError.ACCOUNT_REAUTH_REQUIRED,
                "The account needs to be reconnected and was not reconnected before the delivery's hold deadline.",
                false,
                details(accountId, reconnectUrl));
    }

    /**
     * A held delivery's reason while it waits: kept in its row, and sent once as the {@code queued} target.completed's
     * error, so the customer sees why the target waits and where to reconnect.
     */
    static TargetError waiting(String accountId, String reconnectUrl) {
        return new TargetError(
                TargetError.ACCOUNT_REAUTH_REQUIRED,
                "Waiting for the account to be reconnected.",
                true,
                details(accountId, reconnectUrl));
    }

    private static Map<String, Object> details(String accountId, String reconnectUrl) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("account_id", accountId);
        if (reconnectUrl != null) {
            details.put("reconnect_url", reconnectUrl);
        }
        return details;
    }
}
