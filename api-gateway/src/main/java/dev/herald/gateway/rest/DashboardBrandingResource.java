package dev.herald.gateway.rest;

import dev.herald.common.wire.Branding;
import dev.herald.gateway.client.ApiAnswer;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The hosted connect page's branding in this workspace and mode ({@code GET|PUT|DELETE /branding}, as the member):
 * everyone sees it and a preview of the page's header, accent and footer; members whose role may set it (scope
 * {@code accounts:write}: owners) change or remove it. The preview follows the form as it is typed
 * ({@code dashboard.js}); without the script it shows the saved branding.
 */
@Path("/dashboard/w/{workspace}/{mode}/branding")
@Produces(MediaType.TEXT_HTML)
public class DashboardBrandingResource {
    static final Set<String> FIELDS = Set.of("display_name", "logo_url", "accent_color", "support_url", "privacy_url");

    /**
     * The form as sent (or as saved), and what was wrong with it by field. {@code hostedLogoPath}: the saved logo as the
     * page shows it (the preview cannot show a new URL before Herald has fetched it: the dashboard's policy admits
     * images from its own origin only).
     */
    public record BrandingForm(
            String displayName,
            String logoUrl,
            String accentColor,
            String supportUrl,
            String privacyUrl,
            String hostedLogoPath,
            Map<String, String> errors) {
        static BrandingForm of(Branding saved) {
            if (saved == null) {
                return new BrandingForm("", "", "", "", "", null, Map.of());
            }
            return new BrandingForm(
                    orEmpty(saved.displayName()),
                    orEmpty(saved.logoUrl()),
                    orEmpty(saved.accentColor()),
                    orEmpty(saved.supportUrl()),
                    orEmpty(saved.privacyUrl()),
                    saved.hostedLogoUrl() == null
                            ? null
                            : URI.create(saved.hostedLogoUrl()).getRawPath(),
                    Map.of());
        }

        /** The PUT body: a blank field is left out, which leaves that part unset. */
        Map<String, String> body() {
            Map<String, String> body = new LinkedHashMap<>();
            put(body, "display_name", displayName);
            put(body, "logo_url", logoUrl);
            put(body, "accent_color", accentColor);
            put(body, "support_url", supportUrl);
            put(body, "privacy_url", privacyUrl);
            return body;
        }

        private static void put(Map<String, String> body, String field, String value) {
            if (!value.isBlank()) {
                body.put(field, value.strip());
            }
        }
    }

    @CheckedTemplate(basePath = "dashboard/branding")
    static class Templates {
        static native TemplateInstance edit(
                DashboardCaller caller,
                String section,
                boolean saved,
                boolean manages,
                BrandingForm form,
                String notice);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;

    public DashboardBrandingResource(DashboardAccess access, DashboardResponses responses, MemberApiClient api) {
        this.access = access;
        this.responses = responses;
        this.api = api;
    }

    @GET
    public Uni<Response> show(@BeanParam WorkspacePage requested, @QueryParam("done") String done) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> api.get(caller, "/branding", Map.of()).map(answer -> {
                    Branding saved = answer.status() == 404 ? null : api.data(answer, Branding.class);
                    return Templates.edit(
                            caller, "branding", saved != null, manages(caller), BrandingForm.of(saved), notice(done));
                })));
    }

    @POST
    public Uni<Response> save(
            @BeanParam WorkspacePage requested,
            @FormParam("csrf") String csrf,
            @FormParam("display_name") String displayName,
            @FormParam("logo_url") String logoUrl,
            @FormParam("accent_color") String accentColor,
            @FormParam("support_url") String supportUrl,
            @FormParam("privacy_url") String privacyUrl) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireManager(caller);
                    BrandingForm sent = new BrandingForm(
                            orEmpty(displayName),
                            orEmpty(logoUrl),
                            orEmpty(accentColor),
                            orEmpty(supportUrl),
                            orEmpty(privacyUrl),
                            null,
                            Map.of());
                    return api.send(caller, "PUT", "/branding", sent.body()).map(answer -> {
                        if (answer.status() == 422) {
                            return DashboardResponses.page(
                                    422,
                                    Templates.edit(caller, "branding", false, true, withErrors(sent, answer), null));
                        }
                        answer.orRefuse();
                        return DashboardResponses.seeOther(caller.base() + "/branding?done=saved");
                    });
                }));
    }

    @POST
    @Path("/remove")
    public Uni<Response> remove(@BeanParam WorkspacePage requested, @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireManager(caller);
                    return api.send(caller, "DELETE", "/branding", null).map(answer -> {
                        // Already gone (another tab removed it): the page shows what the member asked for.
                        if (answer.status() != 404) {
                            answer.orRefuse();
                        }
                        return DashboardResponses.seeOther(caller.base() + "/branding?done=removed");
                    });
                }));
    }

    private boolean manages(DashboardCaller caller) {
        return api.allows(caller, "PUT", "/branding");
    }

    private void requireManager(DashboardCaller caller) {
        if (!manages(caller)) {
            throw DashboardRefusal.forbidden("Your role (" + caller.role().wireName()
                    + ") can see the connect page's branding but not change it. Ask an owner.");
        }
    }

    private static BrandingForm withErrors(BrandingForm sent, ApiAnswer answer) {
        return new BrandingForm(
                sent.displayName(),
                sent.logoUrl(),
                sent.accentColor(),
                sent.supportUrl(),
                sent.privacyUrl(),
                null,
                answer.fieldErrors(FIELDS));
    }

    private static String notice(String done) {
        if (done == null) {
            return null;
        }
        return switch (done) {
            case "saved" -> "Branding saved. New and open connect pages show it now.";
            case "removed" -> "Branding removed. Connect pages look like Herald's again.";
            default -> null;
        };
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
