package dev.herald.accounts.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads of the provider answers cached per account and read ({@link ProviderReadCacheRepository} writes them). Reads
 * go through the pool, not the session: a native select stored a new Hibernate query plan on every call (Hibernate
 * 7.1 keys it by a result mapping built anew).
 */
@ApplicationScoped
public class ProviderReadCacheStatements {
    private static final NamedStatement FIND = NamedStatement.of("""
            select payload::text as payload from provider_read_cache
            where account_id = :account_id and read_key = :read_key and fetched_at >= :fresh_since""");

    private static final NamedStatement FIND_ALL = NamedStatement.of("""
            select account_id, payload::text as payload from provider_read_cache
            where account_id = any(:account_ids) and read_key = :read_key and fetched_at >= :fresh_since""");

    private final Pool pool;

    public ProviderReadCacheStatements(Pool pool) {
        this.pool = pool;
    }

    /** The cached JSON, or null when there is none fetched at or after {@code freshSince}. */
    public Uni<String> find(String accountId, String readKey, Instant freshSince) {
        return FIND.parameters()
                .set("account_id", accountId)
                .set("read_key", readKey)
                .set("fresh_since", freshSince)
                .execute(pool)
                .map(rows ->
                        rows.rowCount() == 0 ? null : rows.iterator().next().getString("payload"));
    }

    /** The cached JSON of one read for several accounts, by account id; accounts without a fresh answer are absent. */
    public Uni<Map<String, String>> findAll(List<String> accountIds, String readKey, Instant freshSince) {
        return FIND_ALL.parameters()
                .set("account_ids", accountIds.toArray(String[]::new))
                .set("read_key", readKey)
                .set("fresh_since", freshSince)
                .execute(pool)
                .map(rows -> {
                    Map<String, String> payloads = new HashMap<>();
                    for (Row row : rows) {
                        payloads.put(row.getString("account_id"), row.getString("payload"));
                    }
                    return payloads;
                });
    }
}
