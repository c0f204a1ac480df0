package dev.herald.gateway.repository;

import dev.herald.common.persistence.UniqueRow;
import dev.herald.gateway.model.OAuthClient;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class OAuthClientRepository implements PanacheRepositoryBase<OAuthClient, String> {

    @WithSession
    public Uni<OAuthClient> findActive(String id) {
        return find("id = ?1 and revokedAt is null", id).list().map(UniqueRow::of);
    }
}
