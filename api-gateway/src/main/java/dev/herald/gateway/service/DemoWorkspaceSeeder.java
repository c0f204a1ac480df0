package dev.herald.gateway.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.auth.Scopes;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.config.DemoConfig;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import dev.herald.gateway.model.Workspace;
import dev.herald.gateway.repository.ApiKeyRepository;
import dev.herald.gateway.repository.DashboardMemberRepository;
import dev.herald.gateway.repository.WorkspaceRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.HashSet;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Seeds the demo workspace with the keys {@code ./herald up} hands out (HERALD_DEMO_TEST_KEY and
 * HERALD_DEMO_LIVE_KEY). Idempotent: a key already present is kept; a demo key that no longer matches the
 * configured value is revoked, so changing the variable rotates the key. Also seeds the workspace's owner,
 * {@value #DEMO_OWNER_EMAIL}, with the one-time dashboard sign-in link the launcher hands out on every start
 * (HERALD_DASHBOARD_DEMO_SIGN_IN_TOKEN).
 */
@ApplicationScoped
public class DemoWorkspaceSeeder {
    static final String DEMO_WORKSPACE_ID = "ws_000000000000000000000001";
    static final String DEMO_OWNER_EMAIL = "owner@demo.localhost";
    private static final Logger LOG = Logger.getLogger(DemoWorkspaceSeeder.class);

    private final DemoConfig config;
    private final DashboardConfig dashboard;
    private final DashboardMemberRepository members;
    private final MemberService memberService;
    private final WorkspaceRepository workspaces;
    private final ApiKeyRepository keys;
    private final WorkspaceService workspaceService;
    private final Clock clock;

    public DemoWorkspaceSeeder(
            DemoConfig config,
            DashboardConfig dashboard,
            DashboardMemberRepository members,
            MemberService memberService,
            WorkspaceRepository workspaces,
            ApiKeyRepository keys,
            WorkspaceService workspaceService,
            Clock clock) {
        this.config = config;
        this.dashboard = dashboard;
        this.members = members;
        this.memberService = memberService;
        this.workspaces = workspaces;
        this.keys = keys;
        this.workspaceService = workspaceService;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) throws Throwable {
        if (config.testKey().isEmpty() && config.liveKey().isEmpty()) {
            return;
        }
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> ensureWorkspace()
                .flatMap(ignored -> ensureKey(Mode.TEST, config.testKey()))
                .flatMap(ignored -> ensureKey(Mode.LIVE, config.liveKey()))
                .flatMap(ignored -> ensureOwnerSignInLink())));
        LOG.infof("demo workspace %s is ready", DEMO_WORKSPACE_ID);
    }

    private Uni<Workspace> ensureWorkspace() {
        return workspaces.findById(DEMO_WORKSPACE_ID).flatMap(existing -> {
            if (existing != null) {
                return Uni.createFrom().item(existing);
            }
            Workspace workspace = new Workspace();
            workspace.id = DEMO_WORKSPACE_ID;
            workspace.name = "Demo workspace";
            workspace.createdAt = Timestamps.now(clock);
            return workspaces.persist(workspace);
        });
    }

    private Uni<Void> ensureOwnerSignInLink() {
        if (dashboard.demoSignInToken().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String token = dashboard.demoSignInToken().get();
        if (!DashboardTokens.wellFormed(token)) {
            return Uni.createFrom()
                    .failure(new IllegalArgumentException(
                            "the demo dashboard sign-in token must be 43 characters of base64url (32 random bytes)"));
        }
        return members.listByWorkspace(DEMO_WORKSPACE_ID)
                .flatMap(existing -> {
                    for (DashboardMember member : existing) {
                        if (DEMO_OWNER_EMAIL.equals(member.email)) {
                            return Uni.createFrom().item(member);
                        }
                    }
                    DashboardMember owner = new DashboardMember();
                    owner.id = ResourceIds.newId(IdPrefix.MEMBER);
                    owner.workspaceId = DEMO_WORKSPACE_ID;
                    owner.email = DEMO_OWNER_EMAIL;
                    owner.role = MemberRole.OWNER;
                    owner.createdAt = Timestamps.now(clock);
                    return members.persist(owner);
                })
                .flatMap(owner -> memberService.storeLink(owner.id, token))
                .replaceWithVoid();
    }

    private Uni<Void> ensureKey(Mode mode, Optional<String> configured) {
        if (configured.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String secret = configured.get();
        if (ApiKeySecrets.modeOf(secret).filter(m -> m == mode).isEmpty()) {
            return Uni.createFrom()
                    .failure(new IllegalArgumentException("the demo " + mode.wireName() + " key must look like sk_"
                            + mode.wireName() + "_ followed by 32 letters or digits"));
        }
        String hash = ApiKeySecrets.hash(secret);
        return keys.findActiveDemoKeys(DEMO_WORKSPACE_ID, mode)
                .flatMap(demoKeys -> {
                    for (ApiKey key : demoKeys) {
                        if (!key.secretHash.equals(hash)) {
                            key.revokedAt = Timestamps.now(clock);
                        }
                    }
                    return keys.findBySecretHash(hash);
                })
                .flatMap(existing -> {
                    if (existing == null) {
                        ApiKey key = workspaceService.newKey(
                                DEMO_WORKSPACE_ID,
                                mode,
                                secret,
                                new HashSet<>(Scopes.ALL),
                                "Demo " + mode.wireName() + " key",
                                true);
                        return keys.persist(key).replaceWithVoid();
                    }
                    if (!existing.demo || !existing.workspaceId.equals(DEMO_WORKSPACE_ID)) {
                        return Uni.createFrom()
                                .failure(new IllegalArgumentException("the configured demo " + mode.wireName()
                                        + " key is already in use by another workspace"));
                    }
                    // A demo key configured again after a rotation comes back into service.
                    existing.revokedAt = null;
                    return Uni.createFrom().voidItem();
                });
    }
}
