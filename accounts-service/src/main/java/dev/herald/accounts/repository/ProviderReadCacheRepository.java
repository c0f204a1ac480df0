package dev.herald.accounts.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Provider answers cached per account and read (publishing options, one page of boards or sections), as JSON: written
 * and purged in the caller's Hibernate transaction; read through {@link ProviderReadCacheStatements}.
 */
@ApplicationScoped
public class ProviderReadCacheRepository {
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
