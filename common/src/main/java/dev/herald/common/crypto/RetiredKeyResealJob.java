package dev.herald.common.crypto;

import dev.herald.common.crypto.ResealStatements.Stale;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Finishes a cipher key rotation: every {@code herald.secret-cipher.reseal.interval}, walks each {@link SealedColumn}
 * the service declares, opens each value sealed with a retired key and seals it again with the current one, in
 * batches of {@value #BATCH}, each its own transaction, claimed {@code FOR UPDATE SKIP LOCKED} in primary key order
 * (replicas share the work and never re-seal one row twice; a row a writer holds is left for the next pass). Then it
 * counts what is still not sealed with the current key: the gauge {@code herald_secrets_retired_key_values} per
 * column, which reads 0 once a retired key may be removed. A value that does not open (altered, or its key is no
 * longer configured) is logged by id and left; it keeps the gauge above 0.
 *
 * <p>A bean only in services that store sealed values: {@code herald.secret-cipher.reseal.enabled=true} in their
 * application.properties, and a {@link SealedColumn} bean per column.
 */
@ApplicationScoped
@IfBuildProperty(name = "herald.secret-cipher.reseal.enabled", stringValue = "true")
public class RetiredKeyResealJob {
    static final int BATCH = 50;
    private static final Logger LOG = Logger.getLogger(RetiredKeyResealJob.class);

    /** What one pass did to one column. */
    public record Pass(int resealed, int unopenable, long remaining) {}

    private final Pool pool;
    private final SecretCiphers ciphers;
    private final Map<SealedColumn, ResealStatements> columns = new LinkedHashMap<>();
    private final Map<SealedColumn, AtomicLong> remaining = new LinkedHashMap<>();
    private final RepeatingTask task;

    public RetiredKeyResealJob(
            Pool pool,
            SecretCiphers ciphers,
            Instance<SealedColumn> sealedColumns,
            MeterRegistry registry,
            Vertx vertx,
            SecretCipherConfig config) {
        this.pool = pool;
        this.ciphers = ciphers;
        for (SealedColumn column : sealedColumns) {
            columns.put(column, new ResealStatements(column));
            AtomicLong stale = new AtomicLong();
            remaining.put(column, stale);
            Gauge.builder("herald.secrets.retired.key.values", stale, AtomicLong::get)
                    .description("Stored values not sealed with the current cipher key (0: retired keys may go)")
                    .tag("column", column.toString())
                    .register(registry);
        }
        this.task = new RepeatingTask(
                vertx, "re-seal with the current key", config.reseal().interval(), this::resealAll);
    }

    void start(@Observes StartupEvent started) {
        task.start();
        task.nudge();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    /** One pass over every column, with the cipher as configured now. */
    public Uni<Map<SealedColumn, Pass>> resealAll() {
        return resealAll(ciphers.current());
    }

    /** One pass over every column with {@code cipher}: one snapshot of the keys for the whole pass. */
    public Uni<Map<SealedColumn, Pass>> resealAll(SecretCipher cipher) {
        Map<SealedColumn, Pass> passes = new LinkedHashMap<>();
        return Multi.createFrom()
                .iterable(columns.entrySet())
                .onItem()
                .transformToUniAndConcatenate(entry ->
                        pass(entry.getKey(), entry.getValue(), cipher).invoke(pass -> passes.put(entry.getKey(), pass)))
                .collect()
                .last()
                .replaceWith(passes);
    }

    private Uni<Pass> pass(SealedColumn column, ResealStatements statements, SecretCipher cipher) {
        int[] done = new int[2];
        return batchesFrom(null, statements, cipher, done)
                .flatMap(ignored -> statements.countStale(pool, cipher.currentKeyId()))
                .map(stale -> {
                    remaining.get(column).set(stale);
                    Pass pass = new Pass(done[0], done[1], stale);
                    if (pass.resealed() > 0 || stale > 0) {
                        LOG.infof(
                                "%s: re-sealed %d values with key %s; %d still sealed with another key",
                                column, pass.resealed(), cipher.currentKeyId(), stale);
                    }
                    return pass;
                });
    }

    /** Claims and re-seals batch after batch, each after the last id of the one before, until a batch comes short. */
    private Uni<Void> batchesFrom(Object after, ResealStatements statements, SecretCipher cipher, int[] done) {
        List<Object> lastId = new ArrayList<>(1);
        return pool.withTransaction(connection -> statements
                        .claim(connection, cipher.currentKeyId(), after, BATCH)
                        .invoke(claimed -> {
                            if (!claimed.isEmpty()) {
                                lastId.add(claimed.get(claimed.size() - 1).id());
                            }
                        })
                        .flatMap(claimed -> DueWork.<Stale>goingOnAfterFailure(
                                        stale -> statements
                                                .replace(connection, stale.id(), resealed(cipher, stale))
                                                .replaceWith(true),
                                        (stale, failure) -> LOG.warnf(
                                                "%s: the value of row %s does not open (%s); it is left as it is",
                                                statements, stale.id(), failure.getMessage()))
                                .handleAll(claimed)))
                .flatMap(round -> {
                    done[0] += round.handled();
                    done[1] += round.failed();
                    return round.claimed() < BATCH
                            ? Uni.createFrom().voidItem()
                            : batchesFrom(lastId.get(0), statements, cipher, done);
                });
    }

    private static String resealed(SecretCipher cipher, Stale stale) {
        return cipher.encrypt(cipher.decrypt(stale.value(), stale.boundTo()), stale.boundTo());
    }
}
