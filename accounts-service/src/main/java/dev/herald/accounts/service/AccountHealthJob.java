package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.repository.AccountHealthStatements;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Checks live accounts' grants ahead of failure: every {@code herald.accounts.health.poll-interval} it claims the
 * accounts whose regular check or check ahead of a scheduled post is due ({@link AccountHealthStatements}: SKIP LOCKED
 * and a lease, so replicas share the work and never check one account twice) and checks them one after another
 * ({@link AccountHealthChecks}). A {@code reauth_} sandbox account's first "check" turns it reauth_required.
 */
@ApplicationScoped
public class AccountHealthJob {
    /** A claim outlives the slowest check (a renewal and two reads, each bounded by the provider deadline). */
    static final Duration LEASE = Duration.ofMinutes(5);

    /** Checks ahead of posts this far past are dropped (their account was broken or disconnected meanwhile). */
    static final Duration STALE_DUE_CHECK = Duration.ofDays(1);

    private static final Logger LOG = Logger.getLogger(AccountHealthJob.class);

    private final AccountHealthStatements statements;
    private final AccountsConfig.Health config;
    private final Clock clock;
    // One account's trouble never ends the pass: its lease lapses and it falls due again.
    private final DueWork<String> dueChecks;

    public AccountHealthJob(
            AccountHealthStatements statements,
            AccountRepository accounts,
            AccountHealthChecks checks,
            AccountsConfig config,
            Clock clock) {
        this.statements = statements;
        this.dueChecks = DueWork.goingOnAfterFailure(
                accountId -> Panache.withSession(() -> accounts.findById(accountId))
                        .flatMap(account -> account == null
                                ? Uni.createFrom().item(false)
                                : checks.check(account).replaceWith(true)),
                (accountId, failure) -> LOG.warnf(
                        failure, "The health check of account %s failed; it is retried after its lease", accountId));
        this.config = config.health();
        this.clock = clock;
    }

    @Scheduled(
            every = "${herald.accounts.health.poll-interval:5s}",
            delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return checkDue().replaceWithVoid();
    }

    /** One pass; the number of accounts checked. */
    public Uni<Integer> checkDue() {
        Instant now = Timestamps.now(clock);
        return dueChecks
                .round(statements
                        .purgeStale(now.minus(STALE_DUE_CHECK))
                        .chain(() -> statements.claimDue(now, now.plus(LEASE), config.batchSize())))
                .map(DueWork.Round::handled);
    }
}
