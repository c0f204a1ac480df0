package dev.herald.gateway.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.gateway.model.ApiKey;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
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
}
