package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.repository.ProviderRevocationStatements;
import dev.herald.accounts.repository.ProviderRevocationStatements.PendingRevocation;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Works the revocation queue: asks the provider to revoke each due grant, deletes the row (and the encrypted
 * grant in it) once revoked, retries transient failures with doubling delays, and gives up, deleting the
 * grant unrevoked and logging it, after {@code max-attempts} or {@code retention}. A refusal that says the
 * grant is already invalid counts as revoked.
 */
@ApplicationScoped
public class ProviderRevocations {
    private static final Logger LOG = Logger.getLogger(ProviderRevocations.class);
    private static final int BATCH = 20;

    private final ProviderRevocationStatements queue;
    private final GrantEncryption grants;
    private final OAuthProviders providers;
    private final AccountsConfig config;
    private final Clock clock;

    public ProviderRevocations(
            ProviderRevocationStatements queue,
            GrantEncryption grants,
            OAuthProviders providers,
            AccountsConfig config,
            Clock clock) {
        this.queue = queue;
        this.grants = grants;
        this.providers = providers;
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(
            every = "${herald.accounts.revocation.poll-interval:30s}",
            delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return revokeDue();
    }

    /** One pass over the due revocations (claimed with SKIP LOCKED, so replicas share the queue). */
    public Uni<Void> revokeDue() {
        Instant now = Timestamps.now(clock);
        // One transaction holds the claim's locks: a failure rolls the whole batch back, so it ends the round.
        return queue.inTransaction(connection -> DueWork.<PendingRevocation>endingAtFailure(revocation ->
                                attempt(connection, revocation, now).replaceWith(true))
                        .round(queue.claimDue(connection, now, BATCH)))
                .replaceWithVoid();
    }

    private Uni<Void> attempt(SqlConnection connection, PendingRevocation revocation, Instant now) {
        Optional<OAuthProvider> provider =
                Platform.fromWire(revocation.platform()).flatMap(providers::forPlatform);
        if (provider.isEmpty()) {
            return retryOrGiveUp(
                    connection, revocation, now, "no OAuth provider is configured for " + revocation.platform());
        }
        Uni<Void> revoke;
        try {
            revoke = provider.get().revoke(grants.open(revocation.ciphertext(), revocation.accountId()));
        } catch (RuntimeException e) {
            return retryOrGiveUp(connection, revocation, now, e.getClass().getSimpleName());
        }
        return revoke.ifNoItem()
                .after(Duration.ofSeconds(10))
                .fail()
                .flatMap(done -> {
                    LOG.infof("revoked the provider grant of disconnected account %s", revocation.accountId());
                    return queue.delete(connection, revocation.id());
                })
                .onFailure()
                .recoverWithUni(failure -> {
                    if (failure instanceof ProviderException refused && !refused.retryable()) {
                        // The provider no longer honours the grant: nothing is left to revoke.
                        LOG.infof(
                                "the provider grant of account %s was already invalid (%s)",
                                revocation.accountId(), refused.code());
                        return queue.delete(connection, revocation.id());
                    }
                    String reason = failure instanceof ProviderException refused
                            ? refused.code()
                            : failure.getClass().getSimpleName();
                    return retryOrGiveUp(connection, revocation, now, reason);
                });
    }

    private Uni<Void> retryOrGiveUp(
            SqlConnection connection, PendingRevocation revocation, Instant now, String reason) {
        int attempts = revocation.attempts() + 1;
        Duration delay = config.revocation().firstDelay().multipliedBy(1L << Math.min(20, attempts - 1));
        if (delay.compareTo(config.revocation().maxDelay()) > 0) {
            delay = config.revocation().maxDelay();
        }
        Instant next = now.plus(delay);
        if (attempts >= config.revocation().maxAttempts() || !next.isBefore(revocation.expiresAt())) {
            LOG.errorf(
                    "gave up revoking the provider grant of account %s after %d attempts (%s); the encrypted grant is deleted",
                    revocation.accountId(), attempts, reason);
            return queue.delete(connection, revocation.id());
        }
        LOG.warnf(
                "revoking the provider grant of account %s failed (%s); attempt %d again at %s",
                revocation.accountId(), reason, attempts + 1, next);
        return queue.reschedule(connection, revocation.id(), attempts, next, reason);
    }
}
