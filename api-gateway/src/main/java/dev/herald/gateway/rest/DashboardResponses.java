package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.service.DashboardRefusal;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Duration;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * How every dashboard page answers: HTML (never the API's JSON envelope, never a stack trace), the session cookie
 * (HttpOnly, SameSite=Lax, Secure when the public URL is https, scoped to /dashboard), and redirects after sign-in.
 */
@ApplicationScoped
public class DashboardResponses {
    public static final String COOKIE = "herald_dashboard";
    private static final Logger LOG = Logger.getLogger(DashboardResponses.class);

    @CheckedTemplate(basePath = "dashboard", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance refusal(String title, String message);
    }

    private final boolean secureCookies;
    private final Duration sessionTtl;

    public DashboardResponses(DashboardConfig config) {
        this.secureCookies = "https".equalsIgnoreCase(config.publicUrl().getScheme());
        this.sessionTtl = config.sessionTtl();
    }

    /** A rendered page; a failure becomes its refusal page (an unexpected one is logged and shown as a 503). */
    public Uni<Response> page(Uni<TemplateInstance> page) {
        return respond(page.map(template ->
                Response.ok(template).type("text/html;charset=UTF-8").build()));
    }

    /** Any answer; failures as in {@link #page}. */
    public Uni<Response> respond(Uni<Response> answer) {
        return answer.onFailure().recoverWithItem(DashboardResponses::refusalPage);
    }

    public static Response page(int status, TemplateInstance template) {
        return Response.status(status)
                .type("text/html;charset=UTF-8")
                .entity(template)
                .build();
    }

    public static Response seeOther(String path) {
        return Response.seeOther(URI.create(path)).build();
    }

    public Response signedIn(String sessionToken, String next) {
        return Response.seeOther(URI.create(next))
                .cookie(new NewCookie.Builder(COOKIE)
                        .value(sessionToken)
                        .path("/dashboard")
                        .httpOnly(true)
                        .secure(secureCookies)
                        .sameSite(NewCookie.SameSite.LAX)
                        .maxAge((int) sessionTtl.toSeconds())
                        .build())
                .build();
    }

    public Response signedOut() {
        return Response.seeOther(URI.create("/dashboard/login"))
                .cookie(new NewCookie.Builder(COOKIE)
                        .value("")
                        .path("/dashboard")
                        .httpOnly(true)
                        .secure(secureCookies)
                        .sameSite(NewCookie.SameSite.LAX)
                        .maxAge(0)
                        .build())
                .build();
    }

    /** Only the dashboard throws {@link DashboardRefusal}; this mapper serves it wherever it escapes. */
    @ServerExceptionMapper
    public Response refusal(DashboardRefusal refusal) {
        return refusalPage(refusal);
    }

    static Response refusalPage(Throwable failure) {
        DashboardRefusal refusal = asRefusal(failure);
        Response.ResponseBuilder answer = refusal.status() == 303
                ? Response.seeOther(URI.create(refusal.headers().get("Location")))
                : Response.status(refusal.status())
                        .type("text/html;charset=UTF-8")
                        .entity(Templates.refusal(refusal.title(), refusal.getMessage()));
        refusal.headers().forEach((name, value) -> {
            if (!name.equals("Location")) {
                answer.header(name, value);
            }
        });
        return answer.build();
    }

    private static DashboardRefusal asRefusal(Throwable failure) {
        if (failure instanceof DashboardRefusal refusal) {
            return refusal;
        }
        if (failure instanceof ApiException api && api.code() == ErrorCode.NOT_FOUND) {
            return DashboardRefusal.notFound();
        }
        if (failure instanceof ApiException api && api.code().httpStatus() < 500) {
            // A limit's Retry-After goes along.
            return new DashboardRefusal(api.code().httpStatus(), "Not done", api.getMessage(), api.headers());
        }
        LOG.error("dashboard page failed", failure);
        return DashboardRefusal.unavailable();
    }
}
