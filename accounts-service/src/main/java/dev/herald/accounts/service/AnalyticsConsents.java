package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * The YouTube legal step: the channel owner's express acceptance of the current privacy policy, recorded on the
 * account with a server timestamp and bound to the authorization it was given for.
 */
@ApplicationScoped
public class AnalyticsConsents {

    private final AccountService accountService;
    private final AccountRepository accounts;
    private final AccountsConfig config;
    private final Clock clock;

    public AnalyticsConsents(
            AccountService accountService, AccountRepository accounts, AccountsConfig config, Clock clock) {
        this.accountService = accountService;
        this.accounts = accounts;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Records the owner's acceptance of the current privacy policy for the account's current authorization
     * (YouTube only). Accepting again for the same revision answers the receipt as it is.
     */
    public Uni<Account> accept(
            String workspaceId, Mode mode, String id, String policyVersion, Long authorizationRevision) {
        return Panache.withTransaction(() -> accountService
                .findOrFail(workspaceId, mode, id)
                .flatMap(found -> accounts.findInTenantForUpdate(workspaceId, mode, id))
                .flatMap(account -> {
                    if (!Platform.YOUTUBE.wireName().equals(account.platform)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.ANALYTICS_CONSENT_NOT_REQUIRED,
                                        "Analytics consent applies to YouTube accounts only."));
                    }
                    if (!Account.CONNECTED.equals(account.status)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.CONFLICT,
                                        "The account is disconnected; consent is given for a connected account's authorization.",
                                        Map.of("account_id", id, "reason", "account_disconnected")));
                    }
                    if (authorizationRevision != null && authorizationRevision != account.authorizationRevision) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.CONFLICT,
                                        "The account was authorized again since; the owner must accept for the current authorization.",
                                        Map.of(
                                                "account_id",
                                                id,
                                                "reason",
                                                "authorization_revision_changed",
                                                "authorization_revision",
                                                account.authorizationRevision)));
                    }
                    if (!policyVersion.equals(config.youtubePolicyVersion())) {
                        return Uni.createFrom()
                                .failure(ApiException.validationFailed(
                                        java.util.List.of(new dev.herald.common.api.FieldError(
                                                "policy_version",
                                                "invalid_value",
                                                "policy_version must be the current policy, "
                                                        + config.youtubePolicyVersion() + "."))));
                    }
                    if (account.consentAcceptedAt != null) {
                        return Uni.createFrom().item(AccountViews.toWire(account));
                    }
                    Instant now = Timestamps.now(clock);
                    account.consentPolicyVersion = policyVersion;
                    account.consentAcceptedAt = now;
                    account.updatedAt = now;
                    return accounts.flush()
                            .flatMap(flushed -> Panache.getSession()
                                    .flatMap(session -> session.createNativeQuery("""
                                            insert into analytics_consents (account_id, authorization_revision, policy_version, accepted_at)
                                            values (?1, ?2, ?3, ?4) on conflict do nothing""")
                                            .setParameter(1, account.id)
                                            .setParameter(2, account.authorizationRevision)
                                            .setParameter(3, policyVersion)
                                            .setParameter(4, now)
                                            .executeUpdate()))
                            .replaceWith(AccountViews.toWire(account));
                }));
    }
}
