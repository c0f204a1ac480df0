package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import java.util.List;

/**
 * A signed-in member on one workspace's pages in one mode: what every dashboard page is rendered for. {@code csrf} is
 * the token each of its forms carries.
 */
public record DashboardCaller(
        DashboardMember member,
        String workspaceName,
        Mode mode,
        List<WorkspaceChoice> workspaces,
        String csrf,
        RateLimitStatus rate) {

    /** A workspace the member may switch to. */
    public record WorkspaceChoice(String id, String name, String role) {}

    public String workspaceId() {
        return member.workspaceId;
    }

    public MemberRole role() {
        return member.role;
    }

    public String modeName() {
        return mode.wireName();
    }

    /** {@code /dashboard/w/<workspace>/<mode>}: every page of this workspace and mode lives below it. */
    public String base() {
        return base(mode);
    }

    public String base(Mode other) {
        return "/dashboard/w/" + member.workspaceId + "/" + other.wireName();
    }

    /** The same page in the other mode (the switch every page shows). */
    public String otherModeBase() {
        return base(mode == Mode.TEST ? Mode.LIVE : Mode.TEST);
    }

    public String otherModeName() {
        return mode == Mode.TEST ? "live" : "test";
    }

    /** Refuses the page (403) unless the member is an owner; {@code cannot} ends "Your role (...) cannot ...". */
    public void requireOwner(String cannot) {
        if (!role().isOwner()) {
            throw DashboardRefusal.forbidden(
                    "Your role (" + role().wireName() + ") cannot " + cannot + " Ask an owner of the workspace.");
        }
    }

    public boolean live() {
        return mode == Mode.LIVE;
    }
}
