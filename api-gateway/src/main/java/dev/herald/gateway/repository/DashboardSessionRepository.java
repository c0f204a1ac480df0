package dev.herald.gateway.repository;

import dev.herald.gateway.model.DashboardSession;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

@ApplicationScoped
public class DashboardSessionRepository implements PanacheRepositoryBase<DashboardSession, String> {

    public Uni<Long> deleteExpired(Instant now) {
        return delete("expiresAt <= ?1", now);
    }
}
