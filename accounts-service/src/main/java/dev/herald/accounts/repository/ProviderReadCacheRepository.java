package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Provider answers cached per account and read (publishing options, one page of boards or sections), as JSON. */
@ApplicationScoped
public class ProviderReadCacheRepository {

    /** The cached JSON, or null when there is none fetched at or after {@code freshSince}. */
    @SuppressWarnings("unchecked")
    public Uni<String> find(String accountId, String readKey, Instant freshSince) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select cast(payload as text) from provider_read_cache where account_id = ?1 and read_key = ?2 and fetched_at >= ?3",
                        String.class)
                .setParameter(1, accountId).setParameter(2, readKey).setParameter(3, freshSince).getResultList())
                .map(rows -> ((List<String>) (List<?>) rows).isEmpty() ? null : ((List<String>) (List<?>) rows).get(0));
    }

    /** The cached JSON of one read for several accounts, by account id; accounts without a fresh answer are absent. */
    @SuppressWarnings("unchecked")
    public Uni<Map<String, String>> findAll(List<String> accountIds, String readKey, Instant freshSince) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "select account_id, cast(payload as text) from provider_read_cache "
                                + "where account_id in (?1) and read_key = ?2 and fetched_at >= ?3", Object[].class)
                .setParameter(1, accountIds).setParameter(2, readKey).setParameter(3, freshSince).getResultList())
                .map(rows -> {
                    Map<String, String> payloads = new HashMap<>();
                    for (Object[] row : (List<Object[]>) (List<?>) rows) {
                        payloads.put((String) row[0], (String) row[1]);
                    }
                    return payloads;
                });
    }

    public Uni<Void> store(String accountId, String readKey, String json, Instant now) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("""
                        insert into provider_read_cache (account_id, read_key, payload, fetched_at)
                        values (?1, ?2, cast(cast(?3 as text) as jsonb), ?4)
                        on conflict (account_id, read_key) do update set payload = excluded.payload, fetched_at = excluded.fetched_at""")
                .setParameter(1, accountId).setParameter(2, readKey).setParameter(3, json).setParameter(4, now)
                .executeUpdate()).replaceWithVoid();
    }

    /** Purges everything read from the provider for the account (disconnect), its analytics included. */
    public Uni<Void> deleteAll(String accountId) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                                "delete from provider_read_cache where account_id = ?1")
                        .setParameter(1, accountId).executeUpdate()
                        .chain(() -> session.createNativeQuery("delete from account_analytics where account_id = ?1")
                                .setParameter(1, accountId).executeUpdate()))
                .replaceWithVoid();
    }
}
