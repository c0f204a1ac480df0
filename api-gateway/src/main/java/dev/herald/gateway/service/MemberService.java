package dev.herald.gateway.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import dev.herald.gateway.model.SignInLink;
import dev.herald.gateway.repository.DashboardMemberRepository;
import dev.herald.gateway.repository.SignInLinkRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A workspace's dashboard members (the admin API's {@code /admin/v1/workspaces/{id}/members}, and owners in the
 * dashboard). A workspace never loses its last owner: someone must always be able to manage it.
 */
@ApplicationScoped
public class MemberService {
    private final DashboardMemberRepository members;
    private final SignInLinkRepository links;
    private final WorkspaceService workspaces;
    private final DashboardConfig config;
    private final Clock clock;

    public MemberService(
            DashboardMemberRepository members,
            SignInLinkRepository links,
            WorkspaceService workspaces,
            DashboardConfig config,
            Clock clock) {
        this.members = members;
        this.links = links;
        this.workspaces = workspaces;
        this.config = config;
        this.clock = clock;
    }

    @WithSession
    public Uni<List<DashboardMember>> list(String workspaceId) {
        return workspaces.requireWorkspace(workspaceId).flatMap(workspace -> members.listByWorkspace(workspaceId));
    }

    /** {@code email} and {@code subject} as validated by the caller; at least one is set. */
    @WithTransaction
    public Uni<DashboardMember> add(String workspaceId, String email, String subject, MemberRole role) {
        String normalizedEmail = email == null ? null : email.toLowerCase(Locale.ROOT);
        return workspaces
                .requireWorkspace(workspaceId)
                .flatMap(workspace -> members.listByWorkspace(workspaceId))
                .flatMap(existing -> {
                    for (DashboardMember member : existing) {
                        if (normalizedEmail != null && normalizedEmail.equals(member.email)
                                || subject != null && subject.equals(member.subject)) {
                            return Uni.createFrom()
                                    .failure(new ApiException(
                                            ErrorCode.CONFLICT,
                                            "This person is already a member of the workspace (" + member.id + ").",
                                            Map.of("member_id", member.id)));
                        }
                    }
                    DashboardMember member = new DashboardMember();
                    member.id = ResourceIds.newId(IdPrefix.MEMBER);
                    member.workspaceId = workspaceId;
                    member.email = normalizedEmail;
                    member.subject = subject;
                    member.role = role;
                    member.createdAt = Timestamps.now(clock);
                    return members.persist(member);
                });
    }

    @WithTransaction
    public Uni<DashboardMember> changeRole(String workspaceId, String memberId, MemberRole role) {
        return require(workspaceId, memberId).flatMap(member -> {
            if (member.role == MemberRole.OWNER && role != MemberRole.OWNER) {
                return keepsAnOwner(workspaceId).map(ignored -> {
                    member.role = role;
                    return member;
                });
            }
            member.role = role;
            return Uni.createFrom().item(member);
        });
    }

    @WithTransaction
    public Uni<DashboardMember> remove(String workspaceId, String memberId) {
        return require(workspaceId, memberId).flatMap(member -> {
            Uni<Void> allowed = member.role == MemberRole.OWNER
                    ? keepsAnOwner(workspaceId)
                    : Uni.createFrom().voidItem();
            return allowed.flatMap(ignored -> members.delete(member)).replaceWith(member);
        });
    }

    /** A one-time sign-in link for the member; the returned token is its only copy. */
    @WithTransaction
    public Uni<IssuedSignInLink> issueSignInLink(String workspaceId, String memberId) {
        return require(workspaceId, memberId).flatMap(member -> {
            String token = DashboardTokens.generate();
            return storeLink(member.id, token).map(link -> new IssuedSignInLink(member, token, link.expiresAt));
        });
    }

    /** Stores the link once: a gateway restarted with the same demo token keeps the link as it is (used or not). */
    Uni<SignInLink> storeLink(String memberId, String token) {
        String hash = DashboardTokens.hash(token);
        return links.findById(hash).flatMap(existing -> {
            if (existing != null) {
                return Uni.createFrom().item(existing);
            }
            Instant now = Timestamps.now(clock);
            SignInLink link = new SignInLink();
            link.tokenHash = hash;
            link.memberId = memberId;
            link.createdAt = now;
            link.expiresAt = now.plus(config.signInLinkTtl());
            return links.persist(link);
        });
    }

    private Uni<DashboardMember> require(String workspaceId, String memberId) {
        return members.findById(memberId)
                .map(member -> member != null && member.workspaceId.equals(workspaceId) ? member : null)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("member"));
    }

    private Uni<Void> keepsAnOwner(String workspaceId) {
        return members.countOwners(workspaceId)
                .flatMap(owners -> owners > 1
                        ? Uni.createFrom().voidItem()
                        : Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.CONFLICT,
                                        "A workspace keeps at least one owner: make someone else owner first.")));
    }

    /** A sign-in link as issued: {@code token} is shown once. */
    public record IssuedSignInLink(DashboardMember member, String token, Instant expiresAt) {}
}
