package dev.herald.profiles.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.profiles.model.ProfileEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.Optional;

/** Profiles, always read within one workspace and mode: another tenant's profile simply does not exist here. */
@ApplicationScoped
public class ProfileRepository implements PanacheRepositoryBase<ProfileEntity, String> {

    @WithSession
    public Uni<ProfileEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list()
                .map(UniqueRow::of);
    }

    /** The same, locked for the rest of the transaction (deletion checks and removes under this lock). */
    public Uni<ProfileEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    /**
     * Deletes the row with one statement. Not {@code delete(entity)}: Hibernate Reactive's entity delete keeps its
     * completion in a field shared by every session (hibernate-reactive#1713), so two profiles deleted at once could
     * finish each other's flush on the wrong event loop (HR000069), and the failed sessions never gave their
     * connections back to the pool: the service stopped answering.
     */
    public Uni<Void> deleteRow(String id) {
        return delete("id", id).replaceWithVoid();
    }

    @WithSession
    public Uni<Boolean> externalIdTaken(String workspaceId, Mode mode, String externalId, String exceptProfileId) {
        return count(
                        "workspaceId = ?1 and mode = ?2 and externalId = ?3 and id <> ?4",
                        workspaceId,
                        mode.wireName(),
                        externalId,
                        exceptProfileId == null ? "" : exceptProfileId)
                .map(count -> count > 0);
    }

    /**
     * One page, newest first, {@code fetchSize} rows at most. {@code nameContains} matches case-insensitively
     * as a plain substring (no wildcards); {@code externalId} exactly.
     */
    @WithSession
    public Uni<List<ProfileEntity>> listPage(
            String workspaceId,
            Mode mode,
            String nameContains,
            String externalId,
            Optional<CursorPosition> after,
            int fetchSize) {
        StringBuilder query = new StringBuilder("workspaceId = :workspace and mode = :mode");
        Parameters parameters = Parameters.with("workspace", workspaceId).and("mode", mode.wireName());
        if (nameContains != null && !nameContains.isEmpty()) {
            query.append(" and name ilike :pattern escape '\\'");
            parameters.and("pattern", "%" + escapeLike(nameContains) + "%");
        }
        if (externalId != null) {
            query.append(" and externalId = :externalId");
            parameters.and("externalId", externalId);
        }
        if (after.isPresent()) {
            query.append(" and (createdAt < :afterCreated or (createdAt = :afterCreated and id < :afterId))");
            parameters
                    .and("afterCreated", after.get().createdAt())
                    .and("afterId", after.get().id());
        }
        return find(query.toString(), Sort.descending("createdAt", "id"), parameters)
                .range(0, fetchSize - 1)
                .list();
    }

    static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
