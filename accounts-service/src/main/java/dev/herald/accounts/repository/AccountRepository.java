package dev.herald.accounts.repository;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Accounts, always read within one workspace and mode: another tenant's account simply does not exist here. */
@ApplicationScoped
public class AccountRepository implements PanacheRepositoryBase<AccountEntity, String> {

    public Uni<AccountEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list()
                .map(UniqueRow::of);
    }

    /** Those of {@code ids} that exist in the tenant, whatever their status, in one query. */
    public Uni<List<AccountEntity>> findAllInTenant(String workspaceId, Mode mode, List<String> ids) {
        return find("workspaceId = ?1 and mode = ?2 and id in ?3", workspaceId, mode.wireName(), ids)
                .list();
    }

    /** The same, locked for the rest of the transaction. */
    public Uni<AccountEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    public Uni<AccountEntity> findIdentity(String workspaceId, Mode mode, Platform platform, String externalId) {
        return find(
                        "workspaceId = ?1 and mode = ?2 and platform = ?3 and externalId = ?4",
                        workspaceId,
                        mode.wireName(),
                        platform.wireName(),
                        externalId)
                .list()
                .map(UniqueRow::of);
    }

    /** The account of one provider identity, locked: a reconnection updates it in place. */
    public Uni<AccountEntity> findIdentityForUpdate(
            String workspaceId, Mode mode, Platform platform, String externalId) {
        return find(
                        "workspaceId = ?1 and mode = ?2 and platform = ?3 and externalId = ?4",
                        workspaceId,
                        mode.wireName(),
                        platform.wireName(),
                        externalId)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    /**
     * One page, newest first, {@code fetchSize} rows at most. {@code text} matches name or username
     * case-insensitively as a plain substring (no wildcards); {@code expiringBefore} is where {@code healthy} ends and
     * {@code expiring} begins (now plus {@code AccountViews.EXPIRING_WITHIN}).
     */
    public Uni<List<AccountEntity>> listPage(
            String workspaceId,
            Mode mode,
            AccountFilters filters,
            Instant expiringBefore,
            Optional<CursorPosition> after,
            int fetchSize) {
        StringBuilder query = new StringBuilder("workspaceId = :workspace and mode = :mode");
        Parameters parameters = Parameters.with("workspace", workspaceId).and("mode", mode.wireName());
        if (filters.profileId() != null) {
            query.append(" and profileId = :profile");
            parameters.and("profile", filters.profileId());
        }
        if (filters.platform() != null) {
            query.append(" and platform = :platform");
            parameters.and("platform", filters.platform().wireName());
        }
        String text = filters.text();
        if (text != null && !text.isEmpty()) {
            query.append(" and (name ilike :pattern escape '\\' or username ilike :pattern escape '\\')");
            parameters.and("pattern", "%" + escapeLike(text) + "%");
        }
        if (filters.health() != null) {
            switch (filters.health()) {
                case AccountHealth.HEALTHY ->
                    query.append(" and healthStatus = :health"
                            + " and (tokenExpiresAt is null or tokenExpiresAt >= :expiringBefore)");
                case AccountHealth.EXPIRING ->
                    query.append(" and healthStatus = :health and tokenExpiresAt < :expiringBefore");
                default -> query.append(" and healthStatus = :health");
            }
            boolean derived =
                    AccountHealth.HEALTHY.equals(filters.health()) || AccountHealth.EXPIRING.equals(filters.health());
            parameters.and("health", derived ? AccountHealth.HEALTHY : filters.health());
            if (derived) {
                parameters.and("expiringBefore", expiringBefore);
            }
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
