package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Provider answers cached per account and read (publishing options, one page of boards or sections), as JSON. */
@ApplicationScoped
public class ProviderReadCacheRepository {
    private final Pool pool;

    public ProviderReadCacheRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The cached JSON, or null when there is none fetched at or after {@code freshSince}. Reads go through the pool,
     * not the session: a native select stored a new Hibernate query plan on every call (Hibernate 7.1 keys it by a
     * result mapping built anew).
     */
    public Uni<String> find(String accountId, String readKey, Instant freshSince) {
        return pool.preparedQuery("""
                        select payload::text as payload from provider_read_cache
                        where account_id = $1 and read_key = $2 and fetched_at >= $3""")
                .execute(Tuple.of(accountId, readKey, freshSince.atOffset(ZoneOffset.UTC)))
                .map(rows ->
                        rows.rowCount() == 0 ? null : rows.iterator().next().getString("payload"));
    }

    /** The cached JSON of one read for several accounts, by account id; accounts without a fresh answer are absent. */
    public Uni<Map<String, String>> findAll(List<String> accountIds, String readKey, Instant freshSince) {
        return pool.preparedQuery("""
                        select account_id, payload::text as payload from provider_read_cache
                        where account_id = any($1) and read_key = $2 and fetched_at >= $3""")
                .execute(Tuple.of(accountIds.toArray(String[]::new), readKey, freshSince.atOffset(ZoneOffset.UTC)))
                .map(rows -> {
                    Map<String, String> payloads = new HashMap<>();
                    for (Row row : rows) {
                        payloads.put(row.getString("account_id"), row.getString("payload"));
                    }
                    return payloads;
                });
    }

    public Uni<Void> store(String accountId, String readKey, String json, Instant now) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into provider_read_cache (account_id, read_key, payload, fetched_at)
                        values (?1, ?2, cast(cast(?3 as text) as jsonb), ?4)
                        on conflict (account_id, read_key) do update set payload = excluded.payload, fetched_at = excluded.fetched_at""")
                        .setParameter(1, accountId)
                        .setParameter(2, readKey)
                        .setParameter(3, json)
                        .setParameter(4, now)
                        .executeUpdate())
                .replaceWithVoid();
    }

    /** Purges everything read from the provider for the account (disconnect), its analytics included. */
    public Uni<Void> deleteAll(String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("delete from provider_read_cache where account_id = ?1")
                        .setParameter(1, accountId)
                        .executeUpdate()
                        .chain(() -> session.createNativeQuery("delete from account_analytics where account_id = ?1")
                                .setParameter(1, accountId)
                                .executeUpdate()))
                .replaceWithVoid();
    }
}
