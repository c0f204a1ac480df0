package dev.herald.gateway.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.gateway.model.ApiKey;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

@ApplicationScoped
public class ApiKeyRepository implements PanacheRepositoryBase<ApiKey, String> {

    @WithSession
    public Uni<ApiKey> findBySecretHash(String secretHash) {
        return find("secretHash", secretHash).list().map(UniqueRow::of);
    }

    /** A workspace+mode's keys, active ones first (then the latest revoked), newest first. */
    public Uni<List<ApiKey>> listForWorkspace(String workspaceId, Mode mode) {
        return list(
                "workspaceId = ?1 and mode = ?2 order by revokedAt nulls first, createdAt desc, id", workspaceId, mode);
    }

    public Uni<List<ApiKey>> findActiveDemoKeys(String workspaceId, Mode mode) {
        return list("workspaceId = ?1 and mode = ?2 and demo = true and revokedAt is null", workspaceId, mode);
    }

    /** Keys created for a workspace and mode since {@code since} (demo keys excepted): how many, and the oldest's time. */
    public Uni<CreatedSince> createdSince(String workspaceId, Mode mode, Instant since) {
        String where = "workspaceId = ?1 and mode = ?2 and demo = false and createdAt > ?3";
        return count(where, workspaceId, mode, since)
                .flatMap(count -> count == 0
                        ? Uni.createFrom().item(new CreatedSince(0, null))
                        : find(where + " order by createdAt", workspaceId, mode, since)
                                .firstResult()
                                .map(oldest -> new CreatedSince(count, oldest == null ? null : oldest.createdAt)));
    }

    public record CreatedSince(long count, Instant oldest) {}
}
