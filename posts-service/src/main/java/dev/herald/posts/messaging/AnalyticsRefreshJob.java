package dev.herald.posts.messaging;

import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Platform;
import dev.herald.posts.config.AnalyticsConfig;
import dev.herald.posts.repository.PostAnalyticsStatements;
import dev.herald.posts.repository.PostAnalyticsStatements.Due;
import dev.herald.posts.service.PostAnalyticsReads;
import dev.herald.posts.service.PostAnalyticsService;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Keeps the numbers of recently published targets fresh, so customers' reads are answered from the cache: every
 * {@code herald.analytics.refresh-interval} it starts tracking newly published targets, claims the due ones
 * ({@code SKIP LOCKED} and a lease, so replicas share the work and a dead replica's claims fall due again) and reads
 * them afresh, one after another. A YouTube target whose account has no analytics consent for its current authorization
 * is never read; it is looked at again later.
 */
@ApplicationScoped
public class AnalyticsRefreshJob {
    private static final Logger LOG = Logger.getLogger(AnalyticsRefreshJob.class);

    private final PostAnalyticsStatements cache;
    private final PostAnalyticsReads reads;
    private final AccountsClient accounts;
    private final AnalyticsConfig config;
    private final Clock clock;
    private final RepeatingTask task;
    // One target's trouble never ends the pass: its claim lapses and it falls due again.
    private final DueWork<Refresh> refreshes = DueWork.goingOnAfterFailure(
            refresh -> refreshOne(refresh.target(), refresh.account()),
            (refresh, failure) -> LOG.warnf(
                    "analytics of post %s on account %s not refreshed: %s",
                    refresh.target().postId(), refresh.target().accountId(), failure));

    public AnalyticsRefreshJob(
            PostAnalyticsStatements cache,
            PostAnalyticsReads reads,
            AccountsClient accounts,
            AnalyticsConfig config,
            Clock clock,
            Vertx vertx) {
        this.cache = cache;
        this.reads = reads;
        this.accounts = accounts;
        this.config = config;
        this.clock = clock;
        this.task = new RepeatingTask(vertx, "analytics refresh", config.refreshInterval(), this::refreshDue);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** One pass; the number of targets whose numbers were read. */
    public Uni<Integer> refreshDue() {
        Instant now = Timestamps.now(clock);
        return cache.track(now.minus(config.trackFor()), now, config.refreshBatch())
                .chain(() -> cache.claimDue(now, now.plus(config.claimLease()), config.refreshBatch()))
                .flatMap(due -> {
                    Map<String, List<Due>> byTenant = due.stream()
                            .collect(Collectors.groupingBy(
                                    target -> target.workspaceId() + "/"
                                            + target.mode().wireName(),
                                    LinkedHashMap::new,
                                    Collectors.toList()));
                    return Multi.createFrom()
                            .iterable(byTenant.values())
                            .onItem()
                            .transformToUniAndConcatenate(this::refreshTenant)
                            .collect()
                            .asList()
                            .map(counts ->
                                    counts.stream().mapToInt(Integer::intValue).sum());
                });
    }

    /** The claimed targets of one workspace and mode, with their accounts looked up once. */
    private Uni<Integer> refreshTenant(List<Due> due) {
        Due first = due.get(0);
        // Accounts are asked for when consent decides (YouTube) or a platform is about to be called.
        List<String> ids = due.stream()
                .filter(target -> {
                    Platform platform = Platform.fromWire(target.platform()).orElseThrow();
                    return platform == Platform.YOUTUBE
                            || (target.mode() == Mode.LIVE && reads.readable(Mode.LIVE, platform));
                })
                .map(Due::accountId)
                .distinct()
                .toList();
        Uni<Map<String, AccountForPosting>> lookup = ids.isEmpty()
                ? Uni.createFrom().item(Map.of())
                : accounts.lookup(first.workspaceId(), first.mode(), ids);
        return lookup.flatMap(known -> refreshes
                .handleAll(due.stream()
                        .map(target -> new Refresh(target, known.get(target.accountId())))
                        .toList())
                .map(DueWork.Round::handled));
    }

    /** Whether the target's numbers were read (not when its consent is missing). */
    private Uni<Boolean> refreshOne(Due target, AccountForPosting found) {
        Account account = found == null ? null : found.account();
        if (Platform.YOUTUBE.wireName().equals(target.platform()) && !PostAnalyticsService.consented(account)) {
            return reads.postpone(target, AnalyticsReason.CONSENT_REQUIRED).replaceWith(false);
        }
        return reads.read(target, account).map(PostAnalyticsReads.Fresh::read);
    }

    /** A claimed target with its account as accounts-service knows it (null when unknown or not asked for). */
    private record Refresh(Due target, AccountForPosting account) {}
}
