package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.repository.AccountHealthStatements;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * One check of one account's grant, and its answer recorded through {@link AccountHealthChanges}: what the health job
 * does for each account it claims, and {@code POST /accounts/{id}/health-check} on demand. A live grant is renewed
 * first when {@link HealthCheckPolicy#renewNow} says so, then checked with the platform's cheap read
 * ({@link OAuthProvider#check}); a refusal of a renewable grant's access token is met with one renewal and a second
 * read (the platform may end an access token early; only the grant's own refusal is definitive). Only a definitive
 * answer changes health; anything else counts as a temporary failure and moves the next check out.
 */
@ApplicationScoped
public class AccountHealthChecks {
    static final String SANDBOX_REAUTH_REASON =
            "test mode: the reauth_ username steers this sandbox account to reauth_required; reconnect it through its"
                    + " reconnect_url to make it healthy again";

    private static final Logger LOG = Logger.getLogger(AccountHealthChecks.class);

    /** What a check found. */
    public enum Outcome {
        HEALTHY,
        REAUTH_REQUIRED,
        TEMPORARY_FAILURE,
        /** A sandbox account: nothing to ask a platform. */
        NOT_CHECKED
    }

    /** The outcome, and for a temporary failure what failed (for the on-demand caller's answer). */
    public record Result(Outcome outcome, ProviderException failure) {
        static Result of(Outcome outcome) {
            return new Result(outcome, null);
        }
    }

    private final AccountService accounts;
    private final AccountHealthStatements statements;
    private final AccountHealthChanges changes;
    private final ProviderAccessTokens tokens;
    private final OAuthProviders providers;
    private final HealthCheckPolicy policy;
    private final AccountsConfig.Health config;
    private final Clock clock;

    public AccountHealthChecks(
            AccountService accounts,
            AccountHealthStatements statements,
            AccountHealthChanges changes,
            ProviderAccessTokens tokens,
            OAuthProviders providers,
            HealthCheckPolicy policy,
            AccountsConfig config,
            Clock clock) {
        this.accounts = accounts;
        this.statements = statements;
        this.changes = changes;
        this.tokens = tokens;
        this.providers = providers;
        this.policy = policy;
        this.config = config.health();
        this.clock = clock;
    }

    /**
     * {@code POST /accounts/{id}/health-check}: checks a connected account now and answers it with its fresh health
     * (a sandbox account as the job would: a steered one turns reauth_required, the others stay as they are). A
     * temporary failure leaves health as it was and fails with {@code 502 provider_error} (details {@code retryable}
     * true); an account outside the caller's workspace and mode is {@code 404}.
     */
    public Uni<Account> checkNow(String workspaceId, Mode mode, String accountId) {
        return Panache.withSession(() -> accounts.findOrFail(workspaceId, mode, accountId))
                .flatMap(account -> Account.CONNECTED.equals(account.status)
                        ? check(account)
                        : Uni.createFrom().item(Result.of(Outcome.NOT_CHECKED)))
                .flatMap(result -> {
                    if (result.outcome() != Outcome.TEMPORARY_FAILURE) {
                        return accounts.get(workspaceId, mode, accountId);
                    }
                    ProviderException failure = result.failure();
                    return Uni.createFrom()
                            .failure(new ApiException(
                                    ErrorCode.PROVIDER_ERROR,
                                    "The platform could not be asked about the account's grant now; its health is"
                                            + " unchanged. Try again later.",
                                    Map.of(
                                            "account_id",
                                            accountId,
                                            "provider_code",
                                            failure.code() == null ? "unknown" : failure.code(),
                                            "retryable",
                                            true)));
                });
    }

    /** Checks {@code account} (read before the call, with its failures so far) and records the answer. */
    public Uni<Result> check(AccountEntity account) {
        Mode mode = Mode.fromWire(account.mode).orElseThrow();
        if (mode == Mode.TEST) {
            if (HealthCheckPolicy.steeredToReauth(account)) {
                return changes.reauthRequired(account.workspaceId, mode, account.id, SANDBOX_REAUTH_REASON)
                        .replaceWith(Result.of(Outcome.REAUTH_REQUIRED));
            }
            return Uni.createFrom().item(Result.of(Outcome.NOT_CHECKED));
        }
        Platform platform = Platform.fromWire(account.platform).orElseThrow();
        OAuthProvider provider = providers.forPlatform(platform).orElseThrow();
        if (!provider.configured()) {
            // Nothing can be asked; the operator's missing credentials say nothing about the customer's grant.
            return failed(
                    account,
                    mode,
                    new ProviderException(
                            "provider_not_configured",
                            platform.displayName() + " is not configured on this server",
                            false,
                            false));
        }
        Context context = Vertx.currentContext();
        Uni<ProviderGrant> checked = tokens.forHealthCheck(account, config.refreshAhead(), null)
                .flatMap(grant -> provider.check(grant, account.externalId)
                        .replaceWith(grant)
                        .onFailure(failure -> refusedAccess(failure, platform, grant))
                        .recoverWithUni(refusal -> renewedAndCheckedAgain(account, provider, grant)
                                .onFailure(again -> again instanceof ProviderException renewal && renewal.revoked())
                                // The first refusal is what the platform said about the grant; keep its words.
                                .transform(again -> refusal)));
        if (context != null) {
            // A platform call that timed out, or was retried after a pause, ends on a Mutiny worker or timer thread,
            // where Hibernate Reactive refuses to work (HR000068): the answer is recorded back on this Vert.x context.
            checked = checked.emitOn(task -> context.runOnContext(ignored -> task.run()));
        }
        return checked.flatMap(grant -> answered(account, mode, platform, grant))
                .onFailure()
                .recoverWithUni(failure -> failed(account, mode, failure));
    }

    /** Whether a check's refusal may be only the access token's: a definitive one, of a grant that can be renewed. */
    private static boolean refusedAccess(Throwable failure, Platform platform, ProviderGrant grant) {
        return failure instanceof ProviderException refusal
                && refusal.revoked()
                && !"permission_missing".equals(refusal.code())
                && !"account_not_found".equals(refusal.code())
                && renewable(platform, grant);
    }

    private Uni<ProviderGrant> renewedAndCheckedAgain(
            AccountEntity account, OAuthProvider provider, ProviderGrant refused) {
        return tokens.forHealthCheck(account, config.refreshAhead(), ProviderAccessTokens.sha256(refused.accessToken()))
                .flatMap(fresh -> provider.check(fresh, account.externalId).replaceWith(fresh));
    }

    private Uni<Result> answered(AccountEntity account, Mode mode, Platform platform, ProviderGrant grant) {
        Instant now = Timestamps.now(clock);
        // A grant that cannot be renewed is not checked sooner for its end: renewing it would not help. Nor is a token
        // already inside the renewal window after a renewal (a platform issuing short tokens): it would be renewed on
        // every pass; publishers renew such a token on use.
        Instant end = grant.expiresAt();
        boolean renewsLater = renewable(platform, grant) && end != null && end.isAfter(now.plus(config.refreshAhead()));
        Instant next = policy.regular(now, renewsLater ? end : null);
        // A renewal moves the end of access (a rotated refresh token's, Instagram's renewed token's): `expiring` is
        // derived from it.
        Instant grantEnd = AccountConnections.grantEnd(grant);
        grantEnd = grantEnd == null ? null : grantEnd.truncatedTo(ChronoUnit.MICROS);
        Uni<Void> ended = Objects.equals(grantEnd, account.tokenExpiresAt)
                ? Uni.createFrom().voidItem()
                : statements.recordGrantEnd(account.id, grantEnd);
        return ended.chain(() -> changes.answered(account.workspaceId, mode, account.id, next))
                .replaceWith(Result.of(Outcome.HEALTHY));
    }

    private Uni<Result> failed(AccountEntity account, Mode mode, Throwable failure) {
        if (failure instanceof ProviderException refusal && refusal.revoked()) {
            LOG.infof("%s refused account %s's grant for good: %s", account.platform, account.id, refusal.code());
            return changes.reauthRequired(account.workspaceId, mode, account.id, refusal.getMessage())
                    .replaceWith(Result.of(Outcome.REAUTH_REQUIRED));
        }
        ProviderException temporary = failure instanceof ProviderException refusal
                ? refusal
                : new ProviderException("check_failed", "the check could not complete", false, true);
        if (!(failure instanceof ProviderException refusal) || !refusal.retryable()) {
            // Not a platform's definitive answer either (Herald's configuration, a database hiccup): health stays.
            LOG.warnf("The health check of account %s could not complete (%s); retrying later", account.id, failure);
        }
        Instant retryAt = policy.afterTemporaryFailure(account.checkFailures + 1, Timestamps.now(clock));
        return changes.temporaryFailure(account.workspaceId, mode, account.id, retryAt)
                .replaceWith(new Result(Outcome.TEMPORARY_FAILURE, temporary));
    }

    /** Whether Herald can get a new access token without the user: a refresh token, or Instagram's own renewal. */
    static boolean renewable(Platform platform, ProviderGrant grant) {
        return grant.refreshToken() != null || platform == Platform.INSTAGRAM;
    }
}
