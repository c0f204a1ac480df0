package dev.herald.gateway.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.HourlyCreationLimit;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.RateLimitConfig;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.model.Workspace;
import dev.herald.gateway.repository.ApiKeyRepository;
import dev.herald.gateway.repository.WorkspaceRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Workspaces and their API keys: what the admin API (the dashboard's back end) manages. */
@ApplicationScoped
public class WorkspaceService {
    private final WorkspaceRepository workspaces;
    private final ApiKeyRepository keys;
    private final HourlyCreationLimit keysPerHour;
    private final Clock clock;

    public WorkspaceService(
            WorkspaceRepository workspaces, ApiKeyRepository keys, RateLimitConfig rateLimits, Clock clock) {
        this.workspaces = workspaces;
        this.keys = keys;
        this.keysPerHour = new HourlyCreationLimit("API keys", rateLimits.apiKeysPerHour());
        this.clock = clock;
    }

    @WithTransaction
    public Uni<Workspace> createWorkspace(String name) {
        Workspace workspace = new Workspace();
        workspace.id = ResourceIds.newId(IdPrefix.WORKSPACE);
        workspace.name = name;
        workspace.createdAt = Timestamps.now(clock);
        return workspaces.persist(workspace);
    }

    /**
     * A new key, at most {@link RateLimitConfig#apiKeysPerHour} an hour per workspace and mode; the returned
     * {@link IssuedApiKey} holds the only copy of its secret.
     */
    @WithTransaction
    public Uni<IssuedApiKey> createApiKey(String workspaceId, Mode mode, Set<String> scopes, String name) {
        return workspaces
                .findById(workspaceId)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("workspace"))
                .flatMap(workspace -> {
                    Instant now = Timestamps.now(clock);
                    return keys.createdSince(workspaceId, mode, HourlyCreationLimit.windowStart(now));
                })
                .flatMap(created -> {
                    var refusal = keysPerHour.refusal(created.count(), created.oldest(), Timestamps.now(clock));
                    if (refusal.isPresent()) {
                        return Uni.createFrom().failure(refusal.get());
                    }
                    String secret = ApiKeySecrets.generate(mode);
                    return keys.persist(newKey(workspaceId, mode, secret, scopes, name, false))
                            .map(key -> new IssuedApiKey(key, secret));
                });
    }

    @WithSession
    public Uni<Workspace> requireWorkspace(String workspaceId) {
        return workspaces.findById(workspaceId).onItem().ifNull().failWith(() -> ApiException.notFound("workspace"));
    }

    @WithTransaction
    public Uni<ApiKey> revokeApiKey(String keyId) {
        return keys.findById(keyId)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("API key"))
                .invoke(key -> {
                    if (key.revokedAt == null) {
                        key.revokedAt = Timestamps.now(clock);
                    }
                });
    }

    @WithSession
    public Uni<List<ApiKey>> listApiKeys(String workspaceId, Mode mode) {
        return keys.listForWorkspace(workspaceId, mode);
    }

    /** Revokes a key of this workspace and mode only: another tenant's key id is {@code 404}, as everywhere. */
    @WithTransaction
    public Uni<ApiKey> revokeApiKey(String workspaceId, Mode mode, String keyId) {
        return keys.findById(keyId)
                .map(key -> key != null && key.workspaceId.equals(workspaceId) && key.mode == mode ? key : null)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("API key"))
                .invoke(key -> {
                    if (key.revokedAt == null) {
                        key.revokedAt = Timestamps.now(clock);
                    }
                });
    }

    ApiKey newKey(String workspaceId, Mode mode, String secret, Set<String> scopes, String name, boolean demo) {
        ApiKey key = new ApiKey();
        key.id = ResourceIds.newId(IdPrefix.API_KEY);
        key.workspaceId = workspaceId;
        key.mode = mode;
        key.secretHash = ApiKeySecrets.hash(secret);
        key.secretLast4 = secret.substring(secret.length() - 4);
        key.scopes = String.join(" ", new TreeSet<>(scopes));
        key.name = name;
        key.demo = demo;
        key.createdAt = Timestamps.now(clock);
        return key;
    }
}
