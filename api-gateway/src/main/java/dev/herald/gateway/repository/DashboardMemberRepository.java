package dev.herald.gateway.repository;

import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

@ApplicationScoped
public class DashboardMemberRepository implements PanacheRepositoryBase<DashboardMember, String> {

    public Uni<List<DashboardMember>> listByWorkspace(String workspaceId) {
        return list("workspaceId = ?1 order by createdAt, id", workspaceId);
    }

    /**
     * The memberships an identity holds: by subject, or by email where the member has no subject yet (a subject once
     * recorded is the member's name from then on, so another account that claims the same address gets nothing).
     */
    public Uni<List<DashboardMember>> findByIdentity(String subject, String email) {
        return list(
                "(subject is not null and subject = ?1) or (subject is null and email is not null and email = ?2)"
                        + " order by workspaceId",
                subject == null ? "" : subject,
                email == null ? "" : email);
    }

    public Uni<Long> countOwners(String workspaceId) {
        return count("workspaceId = ?1 and role = ?2", workspaceId, MemberRole.OWNER);
    }
}
