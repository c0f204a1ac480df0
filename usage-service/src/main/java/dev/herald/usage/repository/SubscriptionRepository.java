package dev.herald.usage.repository;

import dev.herald.common.auth.Mode;
import dev.herald.usage.model.SubscriptionEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;

/** Subscriptions by workspace and mode; none means free / free. */
@ApplicationScoped
public class SubscriptionRepository implements PanacheRepositoryBase<SubscriptionEntity, SubscriptionEntity.Key> {

    /** The row, or null when the workspace and mode have never been given a plan. */
    public Uni<SubscriptionEntity> findInTenant(String workspaceId, Mode mode) {
        // By primary key through the entity loader: a query with firstResult() carries a row-limit parameter.
        return findById(new SubscriptionEntity.Key(workspaceId, mode.wireName()));
    }

    /**
     * The row, created as free / free if missing, locked for the rest of the transaction: plan changes of
     * one workspace and mode run one at a time.
     */
    public Uni<SubscriptionEntity> lockOrCreate(String workspaceId, Mode mode, Instant now) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into subscriptions (workspace_id, mode, plan, plan_source, started_at, created_at, updated_at)
                        values (?1, ?2, 'free', 'free', ?3, ?4, ?4) on conflict do nothing""")
                        .setParameter(1, workspaceId)
                        .setParameter(2, mode.wireName())
                        .setParameter(3, Instant.EPOCH)
                        .setParameter(4, now)
                        .executeUpdate())
                .flatMap(inserted -> find("workspaceId = ?1 and mode = ?2", workspaceId, mode.wireName())
                        .withLock(LockModeType.PESSIMISTIC_WRITE)
                        .singleResult());
    }
}
