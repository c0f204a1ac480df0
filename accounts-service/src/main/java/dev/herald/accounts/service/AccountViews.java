package dev.herald.accounts.service;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;

/** Accounts as the API shows them. */
public final class AccountViews {
    private AccountViews() {}

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
                Mode.fromWire(account.mode).orElseThrow(),
                account.connectedAt,
                account.disconnectedAt,
                account.createdAt,
                account.updatedAt,
                consent);
    }
}
