package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.Scopes;
import dev.herald.common.client.UpstreamUnavailable;
import dev.herald.common.client.UsageClient;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.AdminApiKey;
import dev.herald.common.wire.AdminOAuthClient;
import dev.herald.common.wire.AdminWorkspace;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.model.OAuthClient;
import dev.herald.gateway.model.Workspace;
import dev.herald.gateway.service.ApiKeyAuthenticator;
import dev.herald.gateway.service.EntitlementsCache;
import dev.herald.gateway.service.OAuthTokenService;
import dev.herald.gateway.service.RequestAdmission;
import dev.herald.gateway.service.WorkspaceService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/** The admin API (DESIGN section 4): workspaces and API keys, for the dashboard and for scripts. */
@Cancellable(false)
@Path("/admin/v1")
@AdminAuthenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AdminResource {
    private static final Pattern MODE = Pattern.compile("^(test|live)$");

    private final WorkspaceService workspaces;
    private final UsageClient usage;
    private final EntitlementsCache entitlements;
    private final OAuthTokenService oauth;
    private final ApiKeyAuthenticator apiKeys;
    private final RequestAdmission admission;
    private final ObjectMapper mapper;

    public AdminResource(
            WorkspaceService workspaces,
            UsageClient usage,
            EntitlementsCache entitlements,
            OAuthTokenService oauth,
            ApiKeyAuthenticator apiKeys,
            RequestAdmission admission,
            ObjectMapper mapper) {
        this.workspaces = workspaces;
        this.usage = usage;
        this.entitlements = entitlements;
        this.oauth = oauth;
        this.apiKeys = apiKeys;
        this.admission = admission;
        this.mapper = mapper;
    }

    @POST
    @Path("/workspaces")
    public Uni<Response> createWorkspace(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("name"));
        FieldValue<String> name =
                body.string("name").required().trimmed().length(1, 100).read();
        body.validate();
        return workspaces
                .createWorkspace(name.orNull())
                .map(workspace -> Response.status(201)
                        .entity(DataEnvelope.of(toWire(workspace)))
                        .build());
    }

    @POST
    @Path("/workspaces/{id}/api-keys")
    public Uni<Response> createApiKey(@PathParam("id") String workspaceId, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("mode", "scopes", "name"));
        FieldValue<String> mode =
                body.string("mode").required().matching(MODE, "test or live").read();
        FieldValue<String> name =
                body.string("name").nullable().trimmed().length(1, 100).read();
        Set<String> scopes = readScopes(json.get("scopes"), body);
        body.validate();
        return workspaces
                .createApiKey(workspaceId, Mode.fromWire(mode.orNull()).orElseThrow(), scopes, name.orNull())
                .map(issued -> Response.status(201)
                        .entity(DataEnvelope.of(toWire(issued.key(), issued.secret())))
                        .build());
    }

    @DELETE
    @Path("/api-keys/{id}")
    public Uni<DataEnvelope<AdminApiKey>> revokeApiKey(@PathParam("id") String keyId) {
        // Once committed, this replica forgets the key at once; other replicas within their one second.
        return workspaces
                .revokeApiKey(keyId)
                .invoke(key -> apiKeys.forget(key.secretHash))
                .map(key -> DataEnvelope.of(toWire(key, null)));
    }

    @POST
    @Path("/workspaces/{id}/oauth-clients")
    public Uni<Response> createOAuthClient(@PathParam("id") String workspaceId, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("mode", "scopes", "name"));
        FieldValue<String> mode =
                body.string("mode").required().matching(MODE, "test or live").read();
        FieldValue<String> name =
                body.string("name").nullable().trimmed().length(1, 100).read();
        Set<String> scopes = readScopes(json.get("scopes"), body);
        body.validate();
        return oauth.createClient(workspaceId, Mode.fromWire(mode.orNull()).orElseThrow(), scopes, name.orNull())
                .map(issued -> Response.status(201)
                        .entity(DataEnvelope.of(toWire(issued.client(), issued.secret())))
                        .build());
    }

    @DELETE
    @Path("/oauth-clients/{id}")
    public Uni<DataEnvelope<AdminOAuthClient>> revokeOAuthClient(@PathParam("id") String clientId) {
        return oauth.revokeClient(clientId).map(client -> DataEnvelope.of(toWire(client, null)));
    }

    /**
     * Puts a workspace+mode on a plan. usage-service owns plans and decides (upgrades now, downgrades at
     * renewal); its answer, the resulting usage, is passed through. This gateway forgets its cached limits
     * at once.
     */
    @PUT
    @Path("/workspaces/{id}/plan")
    public Uni<Response> changePlan(@PathParam("id") String workspaceId, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("mode", "plan", "plan_source", "grace_ends_at"));
        FieldValue<String> mode =
                body.string("mode").required().matching(MODE, "test or live").read();
        body.string("plan").required().read();
        body.string("plan_source").required().read();
        body.string("grace_ends_at").nullable().read();
        body.validate();
        Mode target = Mode.fromWire(mode.orNull()).orElseThrow();
        ObjectNode forwarded = ((ObjectNode) json).deepCopy();
        forwarded.remove("mode");
        return workspaces
                .requireWorkspace(workspaceId)
                .flatMap(workspace -> usage.changeSubscription(workspaceId, target, forwarded))
                .onFailure(UpstreamUnavailable.class)
                .transform(failure -> new ApiException(
                        ErrorCode.SERVICE_UNAVAILABLE, "A Herald service is temporarily unavailable. Retry shortly."))
                .flatMap(answer -> {
                    entitlements.forget(workspaceId, target);
                    String usageView = answer.readEntity(String.class);
                    Uni<String> shown = answer.getStatus() == 200
                            ? withApiRequestsCounted(workspaceId, target, usageView)
                            : Uni.createFrom().item(usageView);
                    return shown.map(entity -> Response.status(answer.getStatus())
                            .type(MediaType.APPLICATION_JSON)
                            .entity(entity)
                            .build());
                });
    }

    /**
     * usage-service answers the usage view without the API requests this gateway counts (a customer's {@code GET
     * /usage} gets them in its internal token); the admin answer is that same view right after the change, so they
     * are filled in here for the period the view shows.
     */
    private Uni<String> withApiRequestsCounted(String workspaceId, Mode mode, String usageView) {
        ObjectNode view;
        try {
            view = (ObjectNode) mapper.readTree(usageView);
        } catch (Exception e) {
            return Uni.createFrom().item(usageView);
        }
        JsonNode data = view.path("data");
        JsonNode periodStart = data.path("period").path("start");
        if (!(data.path("api_requests") instanceof ObjectNode meter) || !periodStart.isTextual()) {
            return Uni.createFrom().item(usageView);
        }
        return admission
                .meteredUsed(workspaceId, mode, Instant.parse(periodStart.asText()))
                .map(used -> {
                    meter.put("used", used);
                    if (meter.path("limit").isIntegralNumber()) {
                        meter.put(
                                "remaining",
                                Math.max(
                                        0,
                                        meter.get("limit").asLong()
                                                - used
                                                - meter.path("reserved").asLong(0)));
                    }
                    return view.toString();
                });
    }

    /** Absent means every scope; otherwise a non-empty array of known scope names. */
    private static Set<String> readScopes(JsonNode scopes, JsonBody body) {
        if (scopes == null) {
            return new LinkedHashSet<>(Scopes.ALL);
        }
        if (!scopes.isArray() || scopes.isEmpty()) {
            body.reject("scopes", "invalid_type", "scopes must be a non-empty array of scope names.");
            return Set.of();
        }
        Set<String> result = new LinkedHashSet<>();
        for (JsonNode scope : scopes) {
            if (!scope.isTextual() || !Scopes.ALL.contains(scope.textValue())) {
                body.reject("scopes", "invalid_value", "scopes may only hold " + String.join(", ", Scopes.ALL) + ".");
                return Set.of();
            }
            result.add(scope.textValue());
        }
        return result;
    }

    private static AdminOAuthClient toWire(OAuthClient client, String secret) {
        List<String> scopes = new ArrayList<>(client.scopeSet());
        scopes.sort(null);
        return new AdminOAuthClient(
                client.id,
                client.workspaceId,
                client.mode,
                scopes,
                client.name,
                secret,
                client.createdAt,
                client.revokedAt);
    }

    private static AdminWorkspace toWire(Workspace workspace) {
        return new AdminWorkspace(workspace.id, workspace.name, workspace.createdAt);
    }

    private static AdminApiKey toWire(ApiKey key, String secret) {
        List<String> scopes = new ArrayList<>(key.scopeSet());
        scopes.sort(null);
        return new AdminApiKey(
                key.id,
                key.workspaceId,
                key.mode,
                scopes,
                key.name,
                key.secretLast4,
                secret,
                key.createdAt,
                key.revokedAt);
    }
}
