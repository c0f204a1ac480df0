package dev.herald.accounts.repository;

import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.UniqueRow;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;

/** Connect sessions. API reads are scoped by workspace and mode; hosted pages find a session by its token's hash. */
@ApplicationScoped
public class ConnectSessionRepository implements PanacheRepositoryBase<ConnectSessionEntity, String> {

    public Uni<ConnectSessionEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .list()
                .map(UniqueRow::of);
    }

    public Uni<ConnectSessionEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("id = ?1 and workspaceId = ?2 and mode = ?3", id, workspaceId, mode.wireName())
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    /**
     * The sessions the API created for a workspace and mode since {@code since} (reconnect links' sessions, which end
     * users open, are not counted): how many, and the oldest's creation (null when none).
     */
    public Uni<CreatedSince> createdThroughApiSince(String workspaceId, Mode mode, Instant since) {
        String where = "workspaceId = ?1 and mode = ?2 and accountId is null and createdAt > ?3";
        return count(where, workspaceId, mode.wireName(), since)
                .flatMap(count -> count == 0
                        ? Uni.createFrom().item(new CreatedSince(0, null))
                        : find(where + " order by createdAt", workspaceId, mode.wireName(), since)
                                .firstResult()
                                .map(oldest -> new CreatedSince(count, oldest == null ? null : oldest.createdAt)));
    }

    public record CreatedSince(long count, Instant oldest) {}

    public Uni<ConnectSessionEntity> findByTokenHash(String tokenHash) {
        return find("tokenHash", tokenHash).list().map(UniqueRow::of);
    }

    /** Locked, so connections, completion and revocation of one session happen one after another. */
    public Uni<ConnectSessionEntity> findByIdForUpdate(String id) {
        return find("id", id).withLock(LockModeType.PESSIMISTIC_WRITE).list().map(UniqueRow::of);
    }

    /** Revokes every open, unexpired session of a profile; answers how many. */
    public Uni<Integer> revokeOpenOfProfile(String workspaceId, Mode mode, String profileId, Instant now) {
        return update(
                "status = 'revoked', revokedAt = ?1, updatedAt = ?1 where workspaceId = ?2 and mode = ?3"
                        + " and profileId = ?4 and status = 'open' and expiresAt > ?1",
                now,
                workspaceId,
                mode.wireName(),
                profileId);
    }
}
