package dev.herald.accounts.service;

import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
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
 * A grant the provider revoked (or a refused token the provider cannot replace) disconnects the account, as the
 * owner's removing the app at the platform means: it frees its slot, and the owner reconnects it through a
 * connect session.
 */
@ApplicationScoped
public class ProviderAccessTokens {
    /** Refresh this long before the provider's expiry, so a token does not lapse during an upload. */
    static final Duration REFRESH_AHEAD = Duration.ofMinutes(5);

    private static final Logger LOG = Logger.getLogger(ProviderAccessTokens.class);

    private final AccountService accounts;
    private final ProviderCredentialRepository credentials;
    private final GrantEncryption grants;
    private final OAuthProviders providers;
    private final Clock clock;

    public ProviderAccessTokens(
            AccountService accounts,
            ProviderCredentialRepository credentials,
            GrantEncryption grants,
            OAuthProviders providers,
            Clock clock) {
        this.accounts = accounts;
        this.credentials = credentials;
        this.grants = grants;
        this.providers = providers;
        this.clock = clock;
    }

    /**
     * The account's current access. Fails with {@code 404} for an account outside the caller's workspace and mode,
     * {@code 409 conflict} ({@code details.reason}: {@code account_disconnected}, or {@code grant_revoked} when this
     * call found the grant revoked and disconnected the account), {@code 502 provider_error} when the provider
     * could not refresh now (retryable), {@code 503} when the platform is not configured on this server.
     */
    public Uni<ProviderAccess> current(String workspaceId, Mode mode, String accountId, String rejectedTokenSha256) {
        return Panache.withTransaction(() -> accounts.findOrFail(workspaceId, mode, accountId)
                        .flatMap(account -> credentials
                                .findForUpdate(account.id)
                                .flatMap(sealedGrant -> access(account, sealedGrant, rejectedTokenSha256))))
                .flatMap(outcome -> {
                    if (outcome.access() != null) {
                        return Uni.createFrom().item(outcome.access());
                    }
                    LOG.infof(
                            "%s revoked Herald's grant for account %s (%s); disconnecting it",
                            outcome.platform().displayName(),
                            accountId,
                            outcome.revocation().code());
                    return accounts.disconnect(workspaceId, mode, accountId)
                            .flatMap(disconnected -> Uni.createFrom().failure(revoked(accountId, outcome)));
                });
    }

    /** Either the access, or the refusal that revoked the grant (committed as it is; the caller disconnects). */
    private record Outcome(ProviderAccess access, Platform platform, ProviderException revocation) {}

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
        ProviderGrant stored = grants.open(sealed, account.id);
        boolean refused =
                rejectedTokenSha256 != null && rejectedTokenSha256.equalsIgnoreCase(sha256(stored.accessToken()));
        Instant now = Timestamps.now(clock);
        boolean expiring = stored.expiresAt() != null && !stored.expiresAt().isAfter(now.plus(REFRESH_AHEAD));
        if (!refused && !expiring) {
            // Nothing refused, or what was refused has been replaced since: the stored token is the one to use.
            return Uni.createFrom().item(new Outcome(access(account, platform, stored), platform, null));
        }
        OAuthProvider provider = providers.forPlatform(platform).orElseThrow();
        return provider.refresh(stored)
                .flatMap(fresh -> {
                    if (refused && fresh.accessToken().equals(stored.accessToken())) {
                        // A platform without refresh tokens keeps an unexpired token; refused, it is as good as
                        // revoked.
                        throw new ProviderException(
                                "token_refused",
                                platform.displayName() + " refused the access token and issued no other",
                                true,
                                false);
                    }
                    return credentials
                            .store(account.id, grants.seal(fresh, account.id), now)
                            .replaceWith(new Outcome(access(account, platform, fresh), platform, null));
                })
                .onFailure(ProviderException.class)
                .recoverWithUni(failure -> {
                    ProviderException refusal = (ProviderException) failure;
                    if (refusal.revoked()) {
                        return Uni.createFrom().item(new Outcome(null, platform, refusal));
                    }
                    return Uni.createFrom().failure(refusalOf(account.id, platform, refusal));
                });
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

    private static ApiException revoked(String accountId, Outcome outcome) {
        return new ApiException(
                ErrorCode.CONFLICT,
                outcome.platform().displayName()
                        + " revoked Herald's access to the account (the owner removed the app, or the grant lapsed); the account"
                        + " is now disconnected. Reconnect it through a connect session, then post again.",
                Map.of(
                        "account_id",
                        accountId,
                        "reason",
                        "grant_revoked",
                        "provider_code",
                        outcome.revocation().code() == null
                                ? "unknown"
                                : outcome.revocation().code()));
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
                    return providers
                            .forPlatform(platform)
                            .orElseThrow()
                            .refresh(stored)
                            .flatMap(fresh -> {
                                if (refused && fresh.accessToken().equals(stored.accessToken())) {
                                    throw new ProviderException(
                                            "token_refused",
                                            platform.displayName() + " refused the access token and issued no other",
                                            true,
                                            false);
                                }
                                return credentials
                                        .store(account.id, grants.seal(fresh, account.id), now)
                                        .replaceWith(fresh);
                            });
                }));
    }
}
