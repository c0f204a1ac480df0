package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.repository.AccountFenceStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * The pending-posts check of {@code PATCH /accounts/{id}} as a fence (decision 224): accounts-service fences the account,
 * moves it only when no post is pending, and lifts the fence after its write committed or failed. Meanwhile, and for
 * every acceptance that began before the lift, {@code POST /posts} to the account is refused as retryable
 * ({@link PostService}), so no post carries the profile the account is leaving.
 */
@ApplicationScoped
public class AccountFences {
    private final AccountFenceStatements statements;
    private final PostsConfig config;
    private final Clock clock;

    public AccountFences(AccountFenceStatements statements, PostsConfig config, Clock clock) {
        this.statements = statements;
        this.config = config;
        this.clock = clock;
    }

    /** A fence in force until lifted or {@code expiresAt}, and the posts pending for the account when it was put up. */
    public record Fence(String id, String accountId, long pendingPosts, Instant expiresAt) {}

    public Uni<Fence> fence(String workspaceId, Mode mode, String accountId) {
        String id = UUID.randomUUID().toString();
        Instant now = Timestamps.now(clock);
        Instant expiresAt = now.plus(config.accountFenceExpiry());
        return statements
                .fence(id, workspaceId, mode, accountId, now, expiresAt)
                .map(pending -> new Fence(id, accountId, pending, expiresAt));
    }

    /** Lifting a fence twice (a retried call), or one already purged, changes nothing. */
    public Uni<Void> lift(String workspaceId, Mode mode, String accountId, String fenceId) {
        return statements
                .lift(fenceId, workspaceId, mode, accountId, Timestamps.now(clock))
                .replaceWithVoid();
    }
}
