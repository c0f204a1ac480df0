package dev.herald.gateway.rest;

import dev.herald.gateway.config.DashboardOidc;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.DashboardSessions;
import dev.herald.gateway.service.DashboardTokens;
import io.quarkus.oidc.IdToken;
import io.quarkus.oidc.OidcSession;
import io.quarkus.oidc.Tenant;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Signing in and out of the dashboard: through the operator's OIDC provider ({@code /dashboard/oidc}, which
 * quarkus-oidc guards with the authorization-code flow), or with a one-time link; then the home page, which opens the
 * member's workspace (or lets them choose one).
 */
@Path("/dashboard")
@Produces(MediaType.TEXT_HTML)
public class DashboardSignInResource {

    @CheckedTemplate(basePath = "dashboard/signin")
    static class Templates {
        static native TemplateInstance login(boolean oidcEnabled, String problem);

        static native TemplateInstance workspaces(List<DashboardCaller.WorkspaceChoice> workspaces, String csrf);
    }

    @Inject
    DashboardSessions sessions;

    @Inject
    DashboardAccess access;

    @Inject
    DashboardResponses responses;

    @Inject
    OidcSession oidcSession;

    @Inject
    @IdToken
    JsonWebToken idToken;

    @Inject
    DashboardOidc oidc;

    @GET
    public Uni<Response> home(@CookieParam(DashboardResponses.COOKIE) String session) {
        return responses.respond(access.workspacesOf(session).map(workspaces -> {
            if (workspaces.size() == 1) {
                return DashboardResponses.seeOther(
                        "/dashboard/w/" + workspaces.get(0).id() + "/test/usage");
            }
            return DashboardResponses.page(200, Templates.workspaces(workspaces, DashboardTokens.csrfFor(session)));
        }));
    }

    @GET
    @Path("/login")
    public Response login() {
        return DashboardResponses.page(200, Templates.login(oidc.enabled(), null));
    }

    /**
     * Reached only once quarkus-oidc has completed the code flow with the dashboard's tenant. The
     * identity starts a dashboard session of its own, and quarkus-oidc's session cookie is dropped: the dashboard's
     * session is the one that expires, signs out and is checked against membership.
     */
    @GET
    @Path("/oidc")
    @Authenticated
    @Tenant(DashboardOidc.TENANT)
    public Uni<Response> oidc() {
        String subject = idToken.getSubject();
        String email = idToken.getClaim("email");
        Object verified = idToken.getClaim("email_verified");
        boolean emailVerified = !(Boolean.FALSE.equals(verified) || "false".equals(String.valueOf(verified)));
        return oidcSession
                .logout()
                .flatMap(ignored -> sessions.signInWithOidc(subject, email, emailVerified))
                .map(token -> token.map(value -> responses.signedIn(value, "/dashboard"))
                        .orElseGet(() -> DashboardResponses.page(
                                403,
                                Templates.login(
                                        oidc.enabled(),
                                        "Your account" + (email == null ? "" : " (" + email + ")")
                                                + " is not a member of any Herald workspace. Ask a workspace owner"
                                                + " to add you."))));
    }

    @GET
    @Path("/sign-in/{token}")
    public Uni<Response> signInWithLink(@PathParam("token") String token) {
        return sessions.signInWithLink(token)
                .map(session -> session.map(value -> responses.signedIn(value, "/dashboard"))
                        .orElseGet(() -> DashboardResponses.page(
                                410,
                                Templates.login(
                                        oidc.enabled(),
                                        "This sign-in link is not valid: it was used already, it expired, or it was mistyped."
                                                + " Ask for a new one (./herald up prints one on every start)."))));
    }

    @POST
    @Path("/logout")
    public Uni<Response> logout(
            @CookieParam(DashboardResponses.COOKIE) String session, @FormParam("csrf") String csrf) {
        if (session != null && !DashboardTokens.csrfMatches(session, csrf)) {
            return Uni.createFrom().item(DashboardResponses.refusalPage(DashboardRefusal.staleForm()));
        }
        return sessions.signOut(session).map(ignored -> responses.signedOut());
    }

    /** Any other path below /dashboard: the dashboard's own 404 page, not the API's JSON. */
    @GET
    @Path("/{path: .+}")
    public Response notFound() {
        return DashboardResponses.refusalPage(DashboardRefusal.notFound());
    }
}
