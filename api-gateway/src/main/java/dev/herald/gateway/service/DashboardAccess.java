package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.DashboardSession;
import dev.herald.gateway.repository.WorkspaceRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Opens a workspace's page for a browser: its session must be live, its identity a member of the workspace (else
 * 404, as the API answers for another tenant's ids), and the workspace+mode's dashboard window not spent (429 with
 * {@code Retry-After}). Each page request counts once in that window; the API's allowance is never consulted.
 */
@ApplicationScoped
public class DashboardAccess {
    private final DashboardSessions sessions;
    private final WorkspaceRepository workspaces;
    private final RequestAdmission admission;
    private final DashboardConfig config;
    private final Clock clock;

    public DashboardAccess(
            DashboardSessions sessions,
            WorkspaceRepository workspaces,
            RequestAdmission admission,
            DashboardConfig config,
            Clock clock) {
        this.sessions = sessions;
        this.workspaces = workspaces;
        this.admission = admission;
        this.config = config;
        this.clock = clock;
    }

    /** For a page that only reads. */
    @WithSession
    public Uni<DashboardCaller> open(String sessionToken, String workspaceId, String modeName) {
        Mode mode = Mode.fromWire(modeName).orElseThrow(DashboardRefusal::notFound);
        return sessions.find(sessionToken)
                .onItem()
                .ifNull()
                .failWith(DashboardRefusal::signIn)
                .flatMap(session -> sessions.memberships(session)
                        .flatMap(memberships -> caller(sessionToken, session, memberships, workspaceId, mode)));
    }

    /** For a form's submission: also checks the form's CSRF token against the session's. */
    public Uni<DashboardCaller> openForChange(String sessionToken, String workspaceId, String modeName, String csrf) {
        return open(sessionToken, workspaceId, modeName).invoke(caller -> {
            if (!DashboardTokens.csrfMatches(sessionToken, csrf)) {
                throw DashboardRefusal.staleForm();
            }
        });
    }

    /** The workspaces a live session may open (the dashboard's home page); fails with sign-in when there is none. */
    @WithSession
    public Uni<List<DashboardCaller.WorkspaceChoice>> workspacesOf(String sessionToken) {
        return sessions.find(sessionToken)
                .onItem()
                .ifNull()
                .failWith(DashboardRefusal::signIn)
                .flatMap(sessions::memberships)
                .flatMap(this::choices);
    }

    private Uni<DashboardCaller> caller(
            String sessionToken,
            DashboardSession session,
            List<DashboardMember> memberships,
            String workspaceId,
            Mode mode) {
        DashboardMember member = memberships.stream()
                .filter(candidate -> candidate.workspaceId.equals(workspaceId))
                .findFirst()
                .orElseThrow(DashboardRefusal::notFound);
        return choices(memberships)
                .flatMap(choices -> admission
                        .countDashboardRequest(workspaceId, mode, config.perMinute())
                        .map(count -> {
                            if (count.overLimit()) {
                                throw rateLimited(count.status());
                            }
                            String name = choices.stream()
                                    .filter(choice -> choice.id().equals(workspaceId))
                                    .map(DashboardCaller.WorkspaceChoice::name)
                                    .findFirst()
                                    .orElse(workspaceId);
                            return new DashboardCaller(
                                    member, name, mode, choices, DashboardTokens.csrfFor(sessionToken), count.status());
                        }));
    }

    private Uni<List<DashboardCaller.WorkspaceChoice>> choices(List<DashboardMember> memberships) {
        List<String> ids =
                memberships.stream().map(member -> member.workspaceId).toList();
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return workspaces.list("id in ?1", ids).map(found -> {
            Map<String, String> names =
                    found.stream().collect(Collectors.toMap(workspace -> workspace.id, workspace -> workspace.name));
            return memberships.stream()
                    .map(member -> new DashboardCaller.WorkspaceChoice(
                            member.workspaceId,
                            names.getOrDefault(member.workspaceId, member.workspaceId),
                            member.role.wireName()))
                    .sorted(Comparator.comparing(DashboardCaller.WorkspaceChoice::name))
                    .toList();
        });
    }

    private DashboardRefusal rateLimited(RateLimitStatus rate) {
        long retryAfter = Math.max(1, rate.resetEpochSeconds() - clock.instant().getEpochSecond());
        return new DashboardRefusal(
                429,
                "Too many requests",
                "This workspace's dashboard pages were opened more than " + rate.limit()
                        + " times this minute. Wait a moment and try again.",
                Map.of(
                        "Retry-After", Long.toString(retryAfter),
                        "X-RateLimit-Limit", Integer.toString(rate.limit()),
                        "X-RateLimit-Remaining", "0",
                        "X-RateLimit-Reset", Long.toString(rate.resetEpochSeconds())));
    }
}
