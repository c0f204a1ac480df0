package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * When an account's grant is checked next: the decisions of the health job, kept apart from its I/O so they can be
 * tested plainly. Live accounts are checked every {@code checkInterval}, each at a random point of the interval's last
 * fifth (so accounts connected together do not fall due together), sooner when the access token needs renewing, and
 * after a temporary failure with a doubling backoff that never touches health. Sandbox accounts are never checked,
 * except a {@code reauth_} one on its first authorization, which is "checked" (and broken) shortly after connecting.
 */
@ApplicationScoped
public class HealthCheckPolicy {
    /** The prefix that steers a sandbox account to reauth_required (like {@code fail_}, {@code flaky_}, {@code slow_}). */
    public static final String SANDBOX_REAUTH_PREFIX = "reauth_";

    private final AccountsConfig.Health config;
    private final DoubleSupplier random;

    @Inject
    public HealthCheckPolicy(AccountsConfig config) {
        this(config.health(), () -> ThreadLocalRandom.current().nextDouble());
    }

    HealthCheckPolicy(AccountsConfig.Health config, DoubleSupplier random) {
        this.config = config;
        this.random = random;
    }

    /** Whether the sandbox steers this account to reauth_required: a {@code reauth_} one, on its first authorization. */
    public static boolean steeredToReauth(AccountEntity account) {
        return Mode.TEST.wireName().equals(account.mode)
                && account.username != null
                && account.username.startsWith(SANDBOX_REAUTH_PREFIX)
                && account.authorizationRevision == 1;
    }

    /** The first check of an account just (re)authorized; null when it is never checked (a plain sandbox account). */
    public Instant afterAuthorization(AccountEntity account, Instant now, Instant accessExpiresAt) {
        if (Mode.TEST.wireName().equals(account.mode)) {
            return steeredToReauth(account) ? now.plus(config.sandboxReauthAfter()) : null;
        }
        return regular(now, accessExpiresAt);
    }

    /**
     * The check after a definitive answer: within the interval's last fifth, or when the access token enters the
     * renewal window if that comes first ({@code accessExpiresAt} null: a token without an end).
     */
    public Instant regular(Instant now, Instant accessExpiresAt) {
        long interval = config.checkInterval().toMillis();
        Instant next = now.plusMillis(interval - (long) (interval / 5 * random.getAsDouble()));
        if (accessExpiresAt != null) {
            Instant renewal = accessExpiresAt.minus(config.refreshAhead());
            if (renewal.isBefore(next)) {
                return renewal.isAfter(now) ? renewal : now;
            }
        }
        return next;
    }

    /** The retry after the {@code failures}-th temporary failure in a row (1 for the first): doubling, capped. */
    public Instant afterTemporaryFailure(int failures, Instant now) {
        Duration delay = config.retryFirstDelay();
        for (int i = 1; i < failures && delay.compareTo(config.retryMaxDelay()) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return now.plus(delay.compareTo(config.retryMaxDelay()) > 0 ? config.retryMaxDelay() : delay);
    }

    /** The check ahead of a post scheduled at {@code scheduledAt} (now, when that is already close). */
    public Instant beforeDue(Instant scheduledAt, Instant now) {
        Instant check = scheduledAt.minus(config.beforeDue());
        return check.isAfter(now) ? check : now;
    }

    /** Whether a renewable grant's access token is to be renewed now rather than at its next use. */
    public boolean renewNow(Instant accessExpiresAt, Instant now) {
        return accessExpiresAt != null && !accessExpiresAt.isAfter(now.plus(config.refreshAhead()));
    }
}
