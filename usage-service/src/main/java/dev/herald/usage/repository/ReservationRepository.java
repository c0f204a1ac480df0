package dev.herald.usage.repository;

import dev.herald.common.auth.Mode;
import dev.herald.usage.model.ReservationEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/** Reservations, always within one workspace and mode: another tenant's reservation does not exist here. */
@ApplicationScoped
public class ReservationRepository implements PanacheRepositoryBase<ReservationEntity, ReservationEntity.Key> {

    public Uni<ReservationEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("workspaceId = ?1 and mode = ?2 and id = ?3", workspaceId, mode.wireName(), id).firstResult();
    }

    /** The same, locked for the rest of the transaction, so one transition at a time wins. */
    public Uni<ReservationEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("workspaceId = ?1 and mode = ?2 and id = ?3", workspaceId, mode.wireName(), id)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }
}
