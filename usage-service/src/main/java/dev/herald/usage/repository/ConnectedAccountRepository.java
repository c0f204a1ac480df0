package dev.herald.usage.repository;

import dev.herald.common.auth.Mode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Accounts connected now, per workspace and mode. Account events (a later issue) add and remove rows keyed
 * by account id, so a redelivered event changes nothing.
 */
@ApplicationScoped
public class ConnectedAccountRepository {

    public Uni<Void> add(String workspaceId, Mode mode, String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into connected_accounts (workspace_id, mode, account_id) values (?1, ?2, ?3)
                        on conflict do nothing""")
                        .setParameter(1, workspaceId)
                        .setParameter(2, mode.wireName())
                        .setParameter(3, accountId)
                        .executeUpdate())
                .replaceWithVoid();
    }

    public Uni<Void> remove(String workspaceId, Mode mode, String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "delete from connected_accounts where workspace_id = ?1 and mode = ?2 and account_id = ?3")
                        .setParameter(1, workspaceId)
                        .setParameter(2, mode.wireName())
                        .setParameter(3, accountId)
                        .executeUpdate())
                .replaceWithVoid();
    }

    public Uni<Boolean> contains(String workspaceId, Mode mode, String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery("""
                        select count(*) from ConnectedAccountEntity
                        where workspaceId = :workspaceId and mode = :mode and accountId = :accountId""", Long.class)
                        .setParameter("workspaceId", workspaceId)
                        .setParameter("mode", mode.wireName())
                        .setParameter("accountId", accountId)
                        .getSingleResult())
                .map(count -> count > 0);
    }

    /**
     * Serializes slot changes of one workspace and mode until the transaction ends (an advisory lock: the
     * count and the insert that follows cannot interleave with another connection's).
     */
    public Uni<Void> lockTenant(String workspaceId, Mode mode) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select cast(function('pg_advisory_xact_lock', function('hashtextextended', :key, 0)) as String)",
                                String.class)
                        .setParameter("key", "connected_accounts:" + workspaceId + ":" + mode.wireName())
                        .getSingleResult())
                .replaceWithVoid();
    }

    public Uni<Long> count(String workspaceId, Mode mode) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select count(*) from ConnectedAccountEntity where workspaceId = :workspaceId and mode = :mode",
                                Long.class)
                        .setParameter("workspaceId", workspaceId)
                        .setParameter("mode", mode.wireName())
                        .getSingleResult());
    }
}
