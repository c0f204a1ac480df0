package dev.herald.accounts.service;

import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.messaging.AccountEventOutbox;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.accounts.repository.ProviderRevocationRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.ProfilesClient;
import dev.herald.common.client.UsageClient;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Connecting accounts: the one way an account becomes connected, whether a customer authorized it in a
 * connect session or a developer made a sandbox account through the API.
 *
 * <p>A new account, or a disconnected one connecting again, first takes a connected-account slot (and, live,
 * one new connection of the month) from usage-service, which checks both atomically; only then is the account
 * written, with its {@code account.connected} event. Re-authorizing a connected account is free: it keeps its
 * slot and gets a new authorization revision (so a YouTube account needs analytics consent again). If the
 * write fails after the slot was taken, the slot is given back.
 *
 * <p>Somewhat over 300 lines: a new connection and a re-authorization share the grant and health bookkeeping of
 * every authorization ({@link #newAuthorization}, {@link #keepingRefreshToken}), which reads best beside both.
 */
@ApplicationScoped
public class AccountConnections {
    private static final Logger LOG = Logger.getLogger(AccountConnections.class);

    private final AccountRepository accounts;
    private final ProviderCredentialRepository credentials;
    private final ProviderRevocationRepository revocations;
    private final GrantEncryption grants;
    private final UsageClient usage;
    private final ProfilesClient profiles;
    private final AccountEventOutbox events;
    private final HealthCheckPolicy checks;
    private final Clock clock;

    public AccountConnections(
            AccountRepository accounts,
            ProviderCredentialRepository credentials,
            ProviderRevocationRepository revocations,
            GrantEncryption grants,
            UsageClient usage,
            ProfilesClient profiles,
            AccountEventOutbox events,
            HealthCheckPolicy checks,
            Clock clock) {
        this.accounts = accounts;
        this.credentials = credentials;
        this.revocations = revocations;
        this.grants = grants;
        this.usage = usage;
        this.profiles = profiles;
        this.events = events;
        this.checks = checks;
        this.clock = clock;
    }

    /**
     * Connects (or re-authorizes) the identity. Fails with {@code 409 account_limit_reached} when no slot is
     * free, {@code 429 usage_limit_exceeded} (metric {@code new_connections}) when the month's new connections
     * are used up, {@code 422 validation_failed} (field {@code profile_id}) when the profile does not exist in
     * this workspace and mode, and {@code 409 conflict} while a previous disconnection's provider revocation is
     * still pending.
     */
    public Uni<Account> connect(AccountConnection connection) {
        Objects.requireNonNull(connection.platform(), "platform");
        Objects.requireNonNull(connection.externalId(), "externalId");
        if (connection.mode() == Mode.LIVE && connection.grant() == null) {
            throw new IllegalArgumentException("a live connection needs the provider grant");
        }
        return Panache.withSession(() -> accounts.findIdentity(
                                connection.workspaceId(),
                                connection.mode(),
                                connection.platform(),
                                connection.externalId())
                        .flatMap(existing -> existing == null
                                ? Uni.createFrom().item(new Plan(null, false))
                                : revocations.pendingFor(existing.id).map(pending -> new Plan(existing, pending))))
                .flatMap(plan -> {
                    if (plan.revocationPending()) {
                        return Uni.createFrom().failure(revocationPending(plan.existing().id));
                    }
                    if (plan.existing() != null && Account.CONNECTED.equals(plan.existing().status)) {
                        return reauthorize(connection, plan.existing().id);
                    }
                    return connectAnew(connection, plan.existing());
                });
    }

    private record Plan(AccountEntity existing, boolean revocationPending) {}

    /**
     * A connected account authorized again: no slot, no new connection, a new authorization revision. A new grant
     * without a refresh token keeps the stored one's ({@link #keepingRefreshToken}).
     */
    private Uni<Account> reauthorize(AccountConnection connection, String accountId) {
        return Panache.withTransaction(() -> accounts.findInTenantForUpdate(
                        connection.workspaceId(), connection.mode(), accountId)
                .flatMap(account -> storedGrant(account.id, connection).flatMap(stored -> {
                    Instant now = Timestamps.now(clock);
                    ProviderGrant grant = keepingRefreshToken(connection.grant(), stored, now);
                    boolean mended = AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus);
                    account.name = displayName(connection, account.name);
                    account.username = username(connection, account.username);
                    newAuthorization(account, connection, grant, now);
                    return accounts.flush()
                            .flatMap(flushed -> storeGrant(account.id, grant, now))
                            .flatMap(storedNew -> !mended
                                    ? Uni.createFrom().voidItem()
                                    : events.record(
                                            AccountEvent.RECONNECTED,
                                            account.workspaceId,
                                            connection.mode(),
                                            AccountViews.toWire(account),
                                            account.profileId))
                            .replaceWith(AccountViews.toWire(account));
                })));
    }

    /** The account's stored grant, under its lock (a refresh in flight finishes first); null when none or sandbox. */
    private Uni<ProviderGrant> storedGrant(String accountId, AccountConnection connection) {
        if (connection.grant() == null) {
            return Uni.createFrom().nullItem();
        }
        return credentials
                .findForUpdate(accountId)
                .map(sealedGrant -> sealedGrant == null ? null : grants.open(sealedGrant, accountId));
    }

    /**
     * What a re-authorization stores: the new grant, but when it has no refresh token and the stored grant has one
     * still valid, that one (with its end). Several platforms issue a refresh token only at the first consent, and
     * losing it would break the account again when the new access token expires. A refresh token the platform
     * refused for good is never kept: it was dropped when the account turned reauth_required.
     */
    static ProviderGrant keepingRefreshToken(ProviderGrant fresh, ProviderGrant stored, Instant now) {
        if (fresh == null
                || fresh.refreshToken() != null
                || stored == null
                || stored.refreshToken() == null
                || (stored.refreshExpiresAt() != null
                        && !stored.refreshExpiresAt().isAfter(now))) {
            return fresh;
        }
        return new ProviderGrant(
                fresh.accessToken(),
                stored.refreshToken(),
                fresh.expiresAt(),
                stored.refreshExpiresAt(),
                fresh.scopes(),
                fresh.subject());
    }

    /**
     * A new account, or a disconnected one coming back. The profile's hold comes first (it also proves the
     * profile exists, so nothing is charged for a connection that cannot be made), then the slot and new
     * connection, then the write. What was taken is given back when a later step fails.
     */
    private Uni<Account> connectAnew(AccountConnection connection, AccountEntity previous) {
        String accountId = previous == null ? ResourceIds.newId(IdPrefix.ACCOUNT) : previous.id;
        boolean keepsProfile = previous != null && previous.profileId != null;
        String profileId = keepsProfile ? previous.profileId : connection.profileId();
        String newHold = keepsProfile ? null : profileId;
        String workspaceId = connection.workspaceId();
        Mode mode = connection.mode();
        return holdProfile(workspaceId, mode, newHold, accountId)
                .flatMap(held -> usage.connect(workspaceId, mode, accountId, true)
                        .onFailure()
                        .call(refused -> releaseHold(workspaceId, mode, newHold, accountId)))
                .flatMap(slot -> Panache.withTransaction(() -> write(connection, accountId, profileId))
                        .onFailure()
                        .call(failure -> giveBack(connection, accountId, newHold, failure)))
                .onFailure(UniqueViolation::causedBy)
                // A concurrent first connection of the same identity won; this one re-authorizes that account.
                .recoverWithUni(() -> connect(connection));
    }

    private Uni<Account> write(AccountConnection connection, String accountId, String profileId) {
        return accounts.findIdentityForUpdate(
                        connection.workspaceId(), connection.mode(), connection.platform(), connection.externalId())
                .flatMap(account -> {
                    Instant now = Timestamps.now(clock);
                    String previousProfile;
                    Uni<AccountEntity> saved;
                    if (account == null) {
                        AccountEntity created = new AccountEntity();
                        created.id = accountId;
                        created.workspaceId = connection.workspaceId();
                        created.mode = connection.mode().wireName();
                        created.platform = connection.platform().wireName();
                        created.externalId = connection.externalId();
                        created.profileId = profileId;
                        created.name = displayName(connection, null);
                        created.username = username(connection, null);
                        created.status = Account.CONNECTED;
                        created.authorizationRevision = 0;
                        created.createdAt = now;
                        newAuthorization(created, connection, connection.grant(), now);
                        created.connectedAt = now;
                        previousProfile = null;
                        saved = accounts.persistAndFlush(created);
                    } else {
                        previousProfile = account.profileId;
                        account.profileId = profileId;
                        account.name = displayName(connection, account.name);
                        account.username = username(connection, account.username);
                        account.status = Account.CONNECTED;
                        account.disconnectedAt = null;
                        account.connectedAt = now;
                        newAuthorization(account, connection, connection.grant(), now);
                        saved = accounts.flush().replaceWith(account);
                    }
                    return saved.flatMap(row -> storeGrant(row.id, connection.grant(), now)
                            .flatMap(stored -> {
                                Account wire = AccountViews.toWire(row);
                                // A known account coming back (same id, history kept) is reconnected, not new.
                                return events.record(
                                                account == null ? AccountEvent.CONNECTED : AccountEvent.RECONNECTED,
                                                row.workspaceId,
                                                connection.mode(),
                                                wire,
                                                previousProfile)
                                        .replaceWith(wire);
                            }));
                });
    }

    /**
     * A new authorization revision: healthy again (whatever broke the previous grant), with the new grant's end and
     * its first health check.
     */
    private void newAuthorization(
            AccountEntity account, AccountConnection connection, ProviderGrant grant, Instant now) {
        account.authorizationRevision += 1;
        account.healthStatus = AccountHealth.HEALTHY;
        account.healthReason = null;
        account.healthCheckedAt = grant == null ? null : now;
        account.checkFailures = 0;
        account.tokenExpiresAt = grant == null ? null : grantEnd(grant);
        account.nextCheckAt = checks.afterAuthorization(account, now, grant == null ? null : grant.expiresAt());
        // Consent is never carried over from an earlier authorization (spec: reconnection needs new acceptance).
        account.consentAcceptedAt = null;
        account.consentPolicyVersion = null;
        account.connectSessionId = connection.connectSessionId();
        account.updatedAt = now;
    }

    /** When access ends unless renewed: the refresh token's end for a renewable grant, else the access token's. */
    static Instant grantEnd(ProviderGrant grant) {
        return grant.refreshToken() != null ? grant.refreshExpiresAt() : grant.expiresAt();
    }

    private Uni<Void> storeGrant(String accountId, ProviderGrant grant, Instant now) {
        if (grant == null) {
            return Uni.createFrom().voidItem();
        }
        return credentials.store(accountId, grants.seal(grant, accountId), now);
    }

    /** Holds the profile for the account (nothing when null); a profile not in this workspace and mode is a 422. */
    Uni<Void> holdProfile(String workspaceId, Mode mode, String profileId, String accountId) {
        if (profileId == null) {
            return Uni.createFrom().voidItem();
        }
        return profiles.holdForAccount(workspaceId, mode, profileId, accountId)
                .flatMap(held ->
                        held ? Uni.createFrom().voidItem() : Uni.createFrom().failure(unknownProfile()));
    }

    private Uni<Void> giveBack(AccountConnection connection, String accountId, String newHold, Throwable failure) {
        if (!UniqueViolation.causedBy(failure)) {
            LOG.warnf(
                    "connecting %s failed after its slot was taken; giving it back: %s", accountId, failure.toString());
        }
        return usage.disconnect(connection.workspaceId(), connection.mode(), accountId)
                .onFailure()
                .invoke(e -> LOG.warnf("the slot of %s was not given back: %s", accountId, e.toString()))
                .onFailure()
                .recoverWithNull()
                .flatMap(ignored -> releaseHold(connection.workspaceId(), connection.mode(), newHold, accountId));
    }

    /** Releases the account's hold on the profile (nothing when null); a failure is logged, not passed on. */
    Uni<Void> releaseHold(String workspaceId, Mode mode, String profileId, String accountId) {
        if (profileId == null) {
            return Uni.createFrom().voidItem();
        }
        return profiles.releaseForAccount(workspaceId, mode, profileId, accountId)
                .onFailure()
                .invoke(e -> LOG.warnf("the hold of %s on %s was not released: %s", accountId, profileId, e.toString()))
                .onFailure()
                .recoverWithNull();
    }

    static ApiException unknownProfile() {
        return ApiException.validationFailed(List.of(new FieldError(
                "profile_id", "invalid_value", "No profile with this id exists in this workspace and mode.")));
    }

    private static ApiException revocationPending(String accountId) {
        return new ApiException(
                ErrorCode.CONFLICT,
                "This account was disconnected and its provider authorization is still being revoked; reconnect it shortly.",
                Map.of("account_id", accountId, "reason", "revocation_pending"));
    }

    private static String displayName(AccountConnection connection, String current) {
        return connection.name() != null && !connection.name().isBlank()
                ? connection.name().strip()
                : current != null ? current : connection.platform().wireName() + " account";
    }

    private static String username(AccountConnection connection, String current) {
        return connection.username() != null && !connection.username().isBlank()
                ? connection.username().strip()
                : current != null ? current : connection.externalId();
    }
}
