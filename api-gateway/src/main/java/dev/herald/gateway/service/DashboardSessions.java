package dev.herald.gateway.service;

import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.DashboardSession;
import dev.herald.gateway.repository.DashboardMemberRepository;
import dev.herald.gateway.repository.DashboardSessionRepository;
import dev.herald.gateway.repository.SignInLinkRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Dashboard sign-in and sign-out. A session is started only for an identity that is a member of some workspace; it
 * ends at its expiry (absolute, {@code herald.dashboard.session-ttl}) or at sign-out. Both ways in (an OIDC identity,
 * a one-time link) end in the same kind of session.
 */
@ApplicationScoped
public class DashboardSessions {
    private final DashboardSessionRepository sessions;
    private final DashboardMemberRepository members;
    private final SignInLinkRepository links;
    private final DashboardConfig config;
    private final Clock clock;

    public DashboardSessions(
            DashboardSessionRepository sessions,
            DashboardMemberRepository members,
            SignInLinkRepository links,
            DashboardConfig config,
            Clock clock) {
        this.sessions = sessions;
        this.members = members;
        this.links = links;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Signs in the identity an OIDC provider vouched for; empty when it is no workspace's member. An email address
     * counts only when the provider did not say it is unverified. A member known by email alone is bound to the
     * subject now, so later sign-ins match the subject whatever the address becomes.
     */
    @WithTransaction
    public Uni<Optional<String>> signInWithOidc(String subject, String email, boolean emailVerified) {
        String trustedEmail = email == null || !emailVerified ? null : email.toLowerCase(Locale.ROOT);
        return members.findByIdentity(subject, trustedEmail).flatMap(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(Optional.<String>empty());
            }
            bindSubject(found, subject);
            return start(subject, trustedEmail).map(Optional::of);
        });
    }

    /** Signs in with a one-time link: empty when the link is unknown, used or expired. */
    @WithTransaction
    public Uni<Optional<String>> signInWithLink(String linkToken) {
        if (!DashboardTokens.wellFormed(linkToken)) {
            return Uni.createFrom().item(Optional.empty());
        }
        Instant now = Timestamps.now(clock);
        return links.findById(DashboardTokens.hash(linkToken)).flatMap(link -> {
            if (link == null || link.usedAt != null || !now.isBefore(link.expiresAt)) {
                return Uni.createFrom().item(Optional.<String>empty());
            }
            link.usedAt = now;
            return members.findById(link.memberId)
                    .flatMap(member -> member == null
                            ? Uni.createFrom().item(Optional.<String>empty())
                            : start(member.subject, member.email).map(Optional::of));
        });
    }

    /** The live session behind a cookie's token, or null. */
    @WithSession
    public Uni<DashboardSession> find(String sessionToken) {
        if (!DashboardTokens.wellFormed(sessionToken)) {
            return Uni.createFrom().nullItem();
        }
        Instant now = Timestamps.now(clock);
        return sessions.findById(DashboardTokens.hash(sessionToken))
                .map(session -> session != null && now.isBefore(session.expiresAt) ? session : null);
    }

    /** The workspaces the session's identity may open, as memberships. */
    @WithSession
    public Uni<List<DashboardMember>> memberships(DashboardSession session) {
        return members.findByIdentity(session.subject, session.email);
    }

    @WithTransaction
    public Uni<Void> signOut(String sessionToken) {
        if (!DashboardTokens.wellFormed(sessionToken)) {
            return Uni.createFrom().voidItem();
        }
        return sessions.deleteById(DashboardTokens.hash(sessionToken)).replaceWithVoid();
    }

    @Scheduled(every = "10m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    @WithTransaction
    Uni<Void> dropExpired() {
        Instant now = Timestamps.now(clock);
        return sessions.deleteExpired(now)
                .flatMap(ignored -> links.delete("expiresAt <= ?1", now))
                .replaceWithVoid();
    }

    private Uni<String> start(String subject, String email) {
        String token = DashboardTokens.generate();
        Instant now = Timestamps.now(clock);
        DashboardSession session = new DashboardSession();
        session.tokenHash = DashboardTokens.hash(token);
        session.subject = subject;
        session.email = email;
        session.createdAt = now;
        session.expiresAt = now.plus(config.sessionTtl());
        return sessions.persist(session).replaceWith(token);
    }

    private static void bindSubject(List<DashboardMember> found, String subject) {
        List<String> boundWorkspaces = found.stream()
                .filter(member -> subject.equals(member.subject))
                .map(member -> member.workspaceId)
                .toList();
        for (DashboardMember member : found) {
            // One member per subject and workspace: a second row matched by email stays as it is.
            if (member.subject == null && !boundWorkspaces.contains(member.workspaceId)) {
                member.subject = subject;
            }
        }
    }
}
