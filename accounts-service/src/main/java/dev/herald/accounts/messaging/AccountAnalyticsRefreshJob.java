package dev.herald.accounts.messaging;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.repository.AccountAnalyticsStatements;
import dev.herald.accounts.repository.AccountAnalyticsStatements.Due;
import dev.herald.accounts.service.AccountAnalyticsReads;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Keeps connected accounts' numbers fresh, so customers' reads are answered from the cache: every
 * {@code herald.accounts.analytics.refresh-interval} it starts tracking newly connected accounts, claims the due ones
 * ({@code SKIP LOCKED} and a lease, so replicas share the work) and reads them one after another. A YouTube account
 * without analytics consent for its current authorization is never read; it is looked at again later.
 */
@ApplicationScoped
public class AccountAnalyticsRefreshJob {
    private static final Logger LOG = Logger.getLogger(AccountAnalyticsRefreshJob.class);

    private final AccountAnalyticsStatements cache;
    private final AccountAnalyticsReads reads;
    private final AccountsConfig.Analytics config;
    private final Clock clock;
    private final RepeatingTask task;
    // One account's trouble never ends the pass: its claim lapses and it falls due again.
    private final DueWork<Due> refreshes = DueWork.goingOnAfterFailure(
            this::refreshOne,
            (account, failure) -> LOG.warnf("analytics of account %s not refreshed: %s", account.accountId(), failure));

    public AccountAnalyticsRefreshJob(
            AccountAnalyticsStatements cache,
            AccountAnalyticsReads reads,
            AccountsConfig config,
            Clock clock,
            Vertx vertx) {
        this.cache = cache;
        this.reads = reads;
        this.config = config.analytics();
        this.clock = clock;
        this.task =
                new RepeatingTask(vertx, "account analytics refresh", this.config.refreshInterval(), this::refreshDue);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** One pass; the number of accounts whose numbers were read. */
    public Uni<Integer> refreshDue() {
        Instant now = Timestamps.now(clock);
        return refreshes
                .round(cache.track(now, config.refreshBatch())
                        .chain(() -> cache.claimDue(now, now.plus(config.claimLease()), config.refreshBatch())))
                .map(DueWork.Round::handled);
    }

    /** Whether the account's numbers were read (not when its consent is missing). */
    private Uni<Boolean> refreshOne(Due account) {
        if (Platform.YOUTUBE.wireName().equals(account.platform()) && !account.consented()) {
            return reads.postpone(account, AnalyticsReason.CONSENT_REQUIRED).replaceWith(false);
        }
        return reads.read(account).map(AccountAnalyticsReads.Fresh::read);
    }
}
