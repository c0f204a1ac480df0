package dev.herald.gateway.rest;

import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.PathParam;

/**
 * What every request for a workspace's dashboard page carries: the browser's session cookie and the workspace and
 * mode of its path ({@code /dashboard/w/{workspace}/{mode}/...}), for {@code DashboardAccess.open}.
 */
public class WorkspacePage {
    @CookieParam(DashboardResponses.COOKIE)
    String session;

    @PathParam("workspace")
    String workspace;

    @PathParam("mode")
    String mode;
}
