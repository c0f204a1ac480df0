package dev.herald.accounts.service;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import java.time.Duration;
import java.time.Instant;

/** Accounts as the API shows them. */
public final class AccountViews {
    /** A grant that cannot be renewed past this window from now is {@code expiring}. */
    public static final Duration EXPIRING_WITHIN = Duration.ofDays(7);

    private AccountViews() {}

    /**
     * The account's health at {@code now}: the stored status, except that a healthy account whose access ends within
     * {@link #EXPIRING_WITHIN} is {@code expiring} (derived here, so it turns on time without a job).
     */
    public static AccountHealth health(AccountEntity account, Instant now) {
        String status = account.healthStatus;
        if (AccountHealth.HEALTHY.equals(status)
                && account.tokenExpiresAt != null
                && account.tokenExpiresAt.isBefore(now.plus(EXPIRING_WITHIN))) {
            status = AccountHealth.EXPIRING;
        }
        return new AccountHealth(status, account.healthReason, account.tokenExpiresAt, account.healthCheckedAt);
    }

    public static Account toWire(AccountEntity account) {
        Platform platform = Platform.fromWire(account.platform).orElseThrow();
        Account.AnalyticsConsent consent = platform != Platform.YOUTUBE
                ? null
                : new Account.AnalyticsConsent(
                        account.consentAcceptedAt == null
                                ? Account.AnalyticsConsent.REQUIRED
                                : Account.AnalyticsConsent.ACCEPTED,
                        account.authorizationRevision,
                        account.consentPolicyVersion,
                        account.consentAcceptedAt);
        return new Account(
                account.id,
                platform,
                account.profileId,
                account.name,
                account.username,
                account.status,
                health(account, Instant.now()),
                Mode.fromWire(account.mode).orElseThrow(),
                account.connectedAt,
                account.disconnectedAt,
                account.createdAt,
                account.updatedAt,
                consent);
    }
}
