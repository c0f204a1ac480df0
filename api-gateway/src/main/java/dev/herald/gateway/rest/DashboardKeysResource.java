package dev.herald.gateway.rest;

import dev.herald.common.auth.Scopes;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.repository.RequestLogStatements;
import dev.herald.gateway.service.ApiKeyAuthenticator;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.WorkspaceService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** API keys of a workspace and mode: list, create (the secret shown once), revoke after confirmation. */
@Path("/dashboard/w/{workspace}/{mode}/keys")
@Produces(MediaType.TEXT_HTML)
public class DashboardKeysResource {

    /** A key as the list shows it; {@code lastUsed} as far back as the request logs reach. */
    public record KeyRow(ApiKey key, Instant lastUsed) {}

    /** What the create form was sent with, and what was wrong with it (field name to message). */
    public record KeyForm(String name, Set<String> scopes, Map<String, String> errors) {
        static KeyForm empty() {
            return new KeyForm("", new LinkedHashSet<>(Scopes.ALL), Map.of());
        }
    }

    @CheckedTemplate(basePath = "dashboard/keys")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller,
                String section,
                List<KeyRow> keys,
                List<String> allScopes,
                KeyForm form,
                String createdSecret,
                String notice);

        static native TemplateInstance revoke(DashboardCaller caller, String section, ApiKey key);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final WorkspaceService workspaces;
    private final RequestLogStatements logs;
    private final ApiKeyAuthenticator apiKeys;

    public DashboardKeysResource(
            DashboardAccess access,
            DashboardResponses responses,
            WorkspaceService workspaces,
            RequestLogStatements logs,
            ApiKeyAuthenticator apiKeys) {
        this.access = access;
        this.responses = responses;
        this.workspaces = workspaces;
        this.logs = logs;
        this.apiKeys = apiKeys;
    }

    @GET
    public Uni<Response> list(@BeanParam WorkspacePage requested, @QueryParam("revoked") String revoked) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> render(
                        caller, KeyForm.empty(), null, revoked == null ? null : "Key " + revoked + " was revoked.")));
    }

    @POST
    public Uni<Response> create(
            @BeanParam WorkspacePage requested,
            @FormParam("csrf") String csrf,
            @FormParam("name") String name,
            @FormParam("scope") List<String> scopes) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireKeyManager(caller);
                    KeyForm form = validate(name, scopes);
                    if (!form.errors().isEmpty()) {
                        return render(caller, form, null, null).map(page -> DashboardResponses.page(422, page));
                    }
                    String trimmed = form.name().isEmpty() ? null : form.name();
                    return workspaces
                            .createApiKey(caller.workspaceId(), caller.mode(), form.scopes(), trimmed)
                            .flatMap(issued -> render(caller, KeyForm.empty(), issued.secret(), null))
                            .map(page -> DashboardResponses.page(201, page));
                }));
    }

    @GET
    @Path("/{key}/revoke")
    public Uni<Response> confirmRevoke(@BeanParam WorkspacePage requested, @PathParam("key") String keyId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    requireKeyManager(caller);
                    return workspaces
                            .listApiKeys(caller.workspaceId(), caller.mode())
                            .map(keys -> keys.stream()
                                    .filter(key -> key.id.equals(keyId) && key.isActive())
                                    .findFirst()
                                    .map(key -> Templates.revoke(caller, "keys", key))
                                    .orElseThrow(DashboardRefusal::notFound));
                }));
    }

    @POST
    @Path("/{key}/revoke")
    public Uni<Response> revoke(
            @BeanParam WorkspacePage requested, @PathParam("key") String keyId, @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireKeyManager(caller);
                    return workspaces
                            .revokeApiKey(caller.workspaceId(), caller.mode(), keyId)
                            // As the admin API does: this replica forgets the key at once, the others within a second.
                            .invoke(key -> apiKeys.forget(key.secretHash))
                            .map(key -> DashboardResponses.seeOther(caller.base() + "/keys?revoked=" + key.id));
                }));
    }

    private Uni<TemplateInstance> render(DashboardCaller caller, KeyForm form, String createdSecret, String notice) {
        return workspaces
                .listApiKeys(caller.workspaceId(), caller.mode())
                .flatMap(keys -> logs.lastUsedByKey(caller.workspaceId(), caller.mode())
                        .map(lastUsed -> keys.stream()
                                .map(key -> new KeyRow(key, lastUsed.get(key.id)))
                                .toList()))
                .map(rows -> Templates.list(caller, "keys", rows, Scopes.ALL, form, createdSecret, notice));
    }

    private static void requireKeyManager(DashboardCaller caller) {
        if (!caller.role().managesKeys()) {
            throw DashboardRefusal.forbidden(
                    "Your role (" + caller.role().wireName() + ") cannot create or revoke API keys. Ask an owner.");
        }
    }

    static KeyForm validate(String name, List<String> scopes) {
        Map<String, String> errors = new LinkedHashMap<>();
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.length() > 100) {
            errors.put("name", "A name is at most 100 characters.");
        }
        Set<String> chosen = new LinkedHashSet<>(scopes == null ? List.of() : scopes);
        if (chosen.isEmpty()) {
            errors.put("scope", "Choose at least one scope.");
        } else if (!Scopes.ALL.containsAll(chosen)) {
            errors.put("scope", "Choose scopes from the list.");
        }
        return new KeyForm(trimmed, chosen, errors);
    }
}
