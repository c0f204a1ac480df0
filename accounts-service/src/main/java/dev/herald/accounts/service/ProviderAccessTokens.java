package dev.herald.accounts.service;

import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.ProviderAccess;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Hands publishers a usable access token for a live account; grants never leave this service. The stored grant is
 * refreshed when it expires within {@link #REFRESH_AHEAD}, and when the platform just refused the token the caller
 * names; the refresh runs under a lock on the grant's row, so concurrent deliveries to one account refresh once
 * (several platforms rotate refresh tokens, and a second use of the old one can revoke the whole grant). A caller whose
 * refused token has already been replaced gets the replacement without another refresh.
 * <p>
 * A grant the provider refused for good (or a refused token the provider cannot replace) makes the account {@code
 * reauth_required} ({@link AccountHealthChanges}): it stays connected and keeps its slot, its dead refresh token is
 * dropped so that nothing can use it again, and every caller is refused with the account's reconnect link until the
 * owner reconnects it.
 */
@ApplicationScoped
public class ProviderAccessTokens {
    /** Refresh this long before the provider's expiry, so a token does not lapse during an upload. */
    static final Duration REFRESH_AHEAD = Duration.ofMinutes(5);

    /** {@code details.reason} of the 409 for an account whose grant the platform refused for good. */
    public static final String REAUTH_REQUIRED_REASON = "account_reauth_required";

    private static final Logger LOG = Logger.getLogger(ProviderAccessTokens.class);

    private final AccountService accounts;
    private final AccountRepository accountRows;
    private final ProviderCredentialRepository credentials;
    private final GrantEncryption grants;
    private final OAuthProviders providers;
    private final AccountHealthChanges health;
    private final ReconnectLinks links;
    private final Clock clock;

    public ProviderAccessTokens(
            AccountService accounts,
            AccountRepository accountRows,
            ProviderCredentialRepository credentials,
            GrantEncryption grants,
            OAuthProviders providers,
            AccountHealthChanges health,
            ReconnectLinks links,
            Clock clock) {
        this.accounts = accounts;
        this.accountRows = accountRows;
        this.credentials = credentials;
        this.grants = grants;
        this.providers = providers;
        this.health = health;
        this.links = links;
        this.clock = clock;
    }

    /**
     * The account's current access. Fails with {@code 404} for an account outside the caller's workspace and mode,
     * {@code 409 conflict} ({@code details.reason}: {@code account_disconnected}, or {@code account_reauth_required}
     * with {@code reconnect_url} when the platform refused the grant for good, now or before), {@code 502
     * provider_error} when the provider could not refresh now (retryable), {@code 503} when the platform is not
     * configured on this server.
     */
    public Uni<ProviderAccess> current(String workspaceId, Mode mode, String accountId, String rejectedTokenSha256) {
        return Panache.withTransaction(() -> accounts.findOrFail(workspaceId, mode, accountId)
                        .flatMap(account -> credentials
                                .findForUpdate(account.id)
                                // Read again under the grant's lock: a caller that held it may have changed health.
                                .call(sealedGrant -> Panache.getSession().flatMap(session -> session.refresh(account)))
                                .flatMap(sealedGrant -> access(account, sealedGrant, rejectedTokenSha256))))
                // The refusal is raised only now: the transaction that recorded it must commit, not roll back.
                .map(outcome -> {
                    if (outcome.refusal() != null) {
                        throw outcome.refusal();
                    }
                    return outcome.access();
                });
    }

    /** Either the access, or the refusal of an account found reauth_required (committed as it is). */
    private record Outcome(ProviderAccess access, ApiException refusal) {}

    private Uni<Outcome> access(AccountEntity account, byte[] sealed, String rejectedTokenSha256) {
        Platform platform = Platform.fromWire(account.platform).orElseThrow();
        if (Mode.TEST.wireName().equals(account.mode)) {
            return Uni.createFrom()
                    .failure(new ApiException(
                            ErrorCode.CONFLICT,
                            "Sandbox accounts have no platform access; test mode publishes through the simulator.",
                            Map.of("account_id", account.id, "reason", "sandbox_account")));
        }
        if (!Account.CONNECTED.equals(account.status) || sealed == null) {
            return Uni.createFrom()
                    .failure(new ApiException(
                            ErrorCode.CONFLICT,
                            "The account is disconnected; reconnect it through a connect session to publish to it.",
                            Map.of("account_id", account.id, "reason", "account_disconnected")));
        }
        Instant now = Timestamps.now(clock);
        if (AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus)) {
            // Asking the platform again could only be refused again (and a dead refresh token is gone anyway).
            return Uni.createFrom().item(new Outcome(null, reauthRequired(account, platform, now)));
        }
        ProviderGrant stored = grants.open(sealed, account.id);
        boolean refused =
                rejectedTokenSha256 != null && rejectedTokenSha256.equalsIgnoreCase(sha256(stored.accessToken()));
        boolean expiring = stored.expiresAt() != null && !stored.expiresAt().isAfter(now.plus(REFRESH_AHEAD));
        if (!refused && !expiring) {
            // Nothing refused, or what was refused has been replaced since: the stored token is the one to use.
            return Uni.createFrom().item(new Outcome(access(account, platform, stored), null));
        }
        return renew(account.id, platform, stored, refused, now)
                .flatMap(fresh -> {
                    // The platform just vouched for the grant: its end and the answer are the account's health.
                    account.tokenExpiresAt = AccountConnections.grantEnd(fresh);
                    account.healthCheckedAt = now;
                    return accountRows.flush().replaceWith(new Outcome(access(account, platform, fresh), null));
                })
                .onFailure(ProviderException.class)
                .recoverWithUni(failure -> {
                    ProviderException refusal = (ProviderException) failure;
                    if (!refusal.revoked()) {
                        return Uni.createFrom().failure(refusalOf(account.id, platform, refusal));
                    }
                    return refusedForGood(account, platform, stored, refusal, now);
                });
    }

    /**
     * The platform refused the grant for good: its refresh token is dropped (a dead one must never be sent again,
     * and a reconnection keeps a stored refresh token only when it is live), and the account turns reauth_required.
     */
    private Uni<Outcome> refusedForGood(
            AccountEntity account, Platform platform, ProviderGrant stored, ProviderException refusal, Instant now) {
        LOG.infof(
                "%s refused Herald's grant for account %s for good (%s); the account needs reauthorization",
                platform.displayName(), account.id, refusal.code());
        ProviderGrant withoutRefresh = new ProviderGrant(
                stored.accessToken(), null, stored.expiresAt(), null, stored.scopes(), stored.subject());
        Mode mode = Mode.fromWire(account.mode).orElseThrow();
        return credentials
                .store(account.id, grants.seal(withoutRefresh, account.id), now)
                .flatMap(dropped -> health.reauthRequired(account.workspaceId, mode, account.id, refusal.reason()))
                .map(changed -> new Outcome(null, reauthRequired(account, platform, now)));
    }

    private ApiException reauthRequired(AccountEntity account, Platform platform, Instant now) {
        return new ApiException(
                ErrorCode.CONFLICT,
                platform.displayName() + " refused Herald's access to the account for good"
                        + (account.healthReason == null ? "" : " (" + account.healthReason + ")")
                        + "; reconnect it through its reconnect_url, then try again.",
                Map.of(
                        "account_id",
                        account.id,
                        "reason",
                        REAUTH_REQUIRED_REASON,
                        "reconnect_url",
                        links.issue(account, now).url()));
    }

    private static ProviderAccess access(AccountEntity account, Platform platform, ProviderGrant grant) {
        return new ProviderAccess(account.id, platform, account.externalId, grant.accessToken(), grant.expiresAt());
    }

    private static ApiException refusalOf(String accountId, Platform platform, ProviderException refusal) {
        if ("provider_not_configured".equals(refusal.code())) {
            return new ApiException(
                    ErrorCode.SERVICE_UNAVAILABLE,
                    platform.displayName() + " is not configured on this server.",
                    Map.of("account_id", accountId));
        }
        return new ApiException(
                ErrorCode.PROVIDER_ERROR,
                platform.displayName() + " could not refresh the account's access"
                        + (refusal.retryable() ? "; try again later." : "."),
                Map.of(
                        "account_id",
                        accountId,
                        "provider_code",
                        refusal.code() == null ? "unknown" : refusal.code(),
                        "retryable",
                        refusal.retryable()));
    }

    /** Hex SHA-256 of a token: how a caller names a refused token without sending it back. */
    public static String sha256(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The grant the health job checks {@code account} with: the stored one, renewed first, under the same lock on the
     * grant's row as {@link #current}, when it is renewable and its access token ends within {@code renewAhead} (the
     * job's window, wider than {@link #REFRESH_AHEAD}), or when it is the token whose hash is {@code refusedTokenSha256}
     * (the platform just refused it; a token replaced meanwhile is used as it is). A failed renewal fails with the
     * provider's {@link ProviderException} as it is and changes nothing: the job decides what it means for health.
     */
    public Uni<ProviderGrant> forHealthCheck(AccountEntity account, Duration renewAhead, String refusedTokenSha256) {
        Platform platform = Platform.fromWire(account.platform).orElseThrow();
        return Panache.withTransaction(() -> credentials
                .findForUpdate(account.id)
                .flatMap(ciphertext -> {
                    if (ciphertext == null) {
                        return Uni.createFrom()
                                .failure(new ProviderException("grant_missing", "no grant is stored", true, false));
                    }
                    ProviderGrant stored = grants.open(ciphertext, account.id);
                    Instant now = Timestamps.now(clock);
                    boolean refused = refusedTokenSha256 != null
                            && refusedTokenSha256.equalsIgnoreCase(sha256(stored.accessToken()));
                    boolean expiring = AccountHealthChecks.renewable(platform, stored)
                            && stored.expiresAt() != null
                            && !stored.expiresAt().isAfter(now.plus(renewAhead));
                    if (!refused && !expiring) {
                        return Uni.createFrom().item(stored);
                    }
                    return renew(account.id, platform, stored, refused, now);
                }));
    }

    /**
     * Renews {@code stored} at the platform and stores the new grant (the caller holds the grant's row lock). A
     * {@code refused} token that comes back unchanged is refused for good: a platform without refresh tokens keeps an
     * unexpired token, and refused, it is as good as revoked.
     */
    private Uni<ProviderGrant> renew(
            String accountId, Platform platform, ProviderGrant stored, boolean refused, Instant now) {
        return providers.forPlatform(platform).orElseThrow().refresh(stored).flatMap(fresh -> {
            if (refused && fresh.accessToken().equals(stored.accessToken())) {
                throw new ProviderException(
                        "token_refused",
                        platform.displayName() + " refused the access token and issued no other",
                        true,
                        false);
            }
            return credentials
                    .store(accountId, grants.seal(fresh, accountId), now)
                    .replaceWith(fresh);
        });
    }
}
