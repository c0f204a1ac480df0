package dev.herald.accounts.service;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.messaging.AccountEventOutbox;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.repository.AccountFilters;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.accounts.repository.ProviderReadCacheRepository;
import dev.herald.accounts.repository.ProviderRevocationRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.PostsClient;
import dev.herald.common.client.UsageClient;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.ReconnectLink;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Accounts of one workspace and mode: reads, sandbox accounts, profile assignment and disconnection (YouTube
 * analytics consent is {@link AnalyticsConsents}). Every change commits together with its {@code account.*} event in the outbox;
 * a refused change writes nothing.
 */
@ApplicationScoped
public class AccountService {
    public static final String CURSOR_KIND = "accounts";
    private static final Logger LOG = Logger.getLogger(AccountService.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AccountRepository accounts;
    private final AccountConnections connections;
    private final ProviderCredentialRepository credentials;
    private final ProviderRevocationRepository revocations;
    private final ProviderReadCacheRepository cache;
    private final UsageClient usage;
    private final PostsClient posts;
    private final AccountEventOutbox events;
    private final ReconnectLinks links;
    private final CursorCodec cursors;
    private final AccountsConfig config;
    private final Clock clock;

    public AccountService(
            AccountRepository accounts,
            AccountConnections connections,
            ProviderCredentialRepository credentials,
            ProviderRevocationRepository revocations,
            ProviderReadCacheRepository cache,
            UsageClient usage,
            PostsClient posts,
            AccountEventOutbox events,
            ReconnectLinks links,
            CursorCodec cursors,
            AccountsConfig config,
            Clock clock) {
        this.accounts = accounts;
        this.connections = connections;
        this.credentials = credentials;
        this.revocations = revocations;
        this.cache = cache;
        this.usage = usage;
        this.posts = posts;
        this.events = events;
        this.links = links;
        this.cursors = cursors;
        this.config = config;
        this.clock = clock;
    }

    @WithSession
    public Uni<Account> get(String workspaceId, Mode mode, String id) {
        return findOrFail(workspaceId, mode, id).map(AccountViews::toWire);
    }

    @WithSession
    public Uni<ListEnvelope<Account>> list(
            String workspaceId, Mode mode, AccountFilters filters, String limit, String cursor) {
        Map<String, String> scoped = new LinkedHashMap<>();
        scoped.put("profile_id", filters.profileId());
        scoped.put(
                "platform",
                filters.platform() == null ? null : filters.platform().wireName());
        scoped.put("q", filters.text() == null || filters.text().isEmpty() ? null : filters.text());
        scoped.put("health", filters.health());
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, scoped);
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        Instant expiringBefore = Timestamps.now(clock).plus(AccountViews.EXPIRING_WITHIN);
        return accounts.listPage(workspaceId, mode, filters, expiringBefore, page.after(), page.fetchSize())
                .map(rows -> Page.of(
                        rows,
                        page,
                        row -> new CursorPosition(row.createdAt, row.id),
                        AccountViews::toWire,
                        scope,
                        cursors));
    }

    /** A fresh reconnect link for the account, whatever its health (an expiring one is best renewed early). */
    @WithSession
    public Uni<ReconnectLink> reconnectLink(String workspaceId, Mode mode, String id) {
        return findOrFail(workspaceId, mode, id).map(account -> {
            ReconnectLinks.Link link = links.issue(account, Timestamps.now(clock));
            return new ReconnectLink(account.id, link.url(), link.expiresAt());
        });
    }

    /**
     * A simulated account (test mode only), connected at once: it takes one of the test workspace's ten slots
     * like any connection. Its provider id is random, so every call makes a new account.
     */
    public Uni<Account> createSandbox(
            String workspaceId, Mode mode, Platform platform, String profileId, String name, String username) {
        if (mode != Mode.TEST) {
            return Uni.createFrom().failure(testModeOnly());
        }
        String externalId = "sim_" + HexFormat.of().formatHex(randomBytes(12));
        String chosenName = name != null ? name : "Test " + displayPlatform(platform) + " account";
        String chosenUsername =
                username != null ? username : "test_" + platform.wireName() + "_" + externalId.substring(4, 12);
        return connections.connect(new AccountConnection(
                workspaceId, mode, profileId, platform, externalId, chosenName, chosenUsername, null, null));
    }

    /**
     * Assigns the account to a profile of the same workspace and mode, or unassigns it ({@code null}). Refused
     * with {@code 409 account_has_pending_posts} while posts-service has accepted posts pending for it. The new
     * profile is held before the change and the old one released after it. The pending check fences the account in
     * posts-service, which accepts no post to it until the fence is lifted, after the write committed or failed
     * (decision 224): no post accepted meanwhile carries the profile the account leaves.
     */
    public Uni<Account> reassign(String workspaceId, Mode mode, String id, String profileId) {
        return Panache.withSession(() -> findOrFail(workspaceId, mode, id)).flatMap(current -> {
            if (Objects.equals(current.profileId, profileId)) {
                return Uni.createFrom().item(AccountViews.toWire(current));
            }
            return posts.fence(workspaceId, mode, id)
                    .flatMap(fence -> moveUnlessPending(workspaceId, mode, id, profileId, fence)
                            .onTermination()
                            .call(() -> posts.lift(workspaceId, mode, id, fence.id())
                                    // Unlifted, the fence expires by itself in posts-service (30 s).
                                    .onFailure()
                                    .invoke(e -> LOG.warnf("fence on account %s not lifted: %s", id, e.toString()))
                                    .onFailure()
                                    .recoverWithNull()));
        });
    }

    private Uni<Account> moveUnlessPending(
            String workspaceId, Mode mode, String id, String profileId, PostsClient.AccountFence fence) {
        long pending = fence.pendingPosts();
        if (pending > 0) {
            return Uni.createFrom()
                    .failure(new ApiException(
                            ErrorCode.ACCOUNT_HAS_PENDING_POSTS,
                            "The account has " + pending + " accepted post" + (pending == 1 ? "" : "s")
                                    + " still pending; wait until they finish or cancel them before moving it.",
                            Map.of("account_id", id, "pending_posts", pending)));
        }
        return connections
                .holdProfile(workspaceId, mode, profileId, id)
                .flatMap(held -> Panache.withTransaction(() -> writeAssignment(
                                workspaceId,
                                mode,
                                id,
                                profileId,
                                fence.expiresAt().minus(config.moveBeforeFenceEnds())))
                        .onFailure()
                        .call(failure -> connections.releaseHold(workspaceId, mode, profileId, id)))
                .call(change -> change.previousProfileId() == null
                                || change.previousProfileId().equals(profileId)
                        ? Uni.createFrom().voidItem()
                        : connections.releaseHold(workspaceId, mode, change.previousProfileId(), id))
                .map(Assignment::account);
    }

    private record Assignment(Account account, String previousProfileId) {}

    /** The move, unless it is too late for it: {@code writeBy} leaves the fence time to cover the commit. */
    private Uni<Assignment> writeAssignment(
            String workspaceId, Mode mode, String id, String profileId, Instant writeBy) {
        return accounts.findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("account"))
                .flatMap(account -> {
                    // Checked once the row is ours (waiting for it may have taken long); the commit follows at once.
                    if (!Timestamps.now(clock).isBefore(writeBy)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.SERVICE_UNAVAILABLE,
                                        "The account could not be moved in time; retry shortly."));
                    }
                    String previous = account.profileId;
                    if (Objects.equals(previous, profileId)) {
                        return Uni.createFrom().item(new Assignment(AccountViews.toWire(account), previous));
                    }
                    account.profileId = profileId;
                    account.updatedAt = Timestamps.now(clock);
                    return accounts.flush().flatMap(flushed -> {
                        Account wire = AccountViews.toWire(account);
                        return events.record(AccountEvent.REASSIGNED, workspaceId, mode, wire, previous)
                                .replaceWith(new Assignment(wire, previous));
                    });
                });
    }

    /**
     * Disconnects: the account stays (with its history and profile) but no longer holds a slot. Its provider
     * credentials and everything read from the provider are deleted; a YouTube grant goes, encrypted, to the
     * revocation queue, which asks Google to revoke it. Disconnecting a disconnected account changes nothing.
     */
    public Uni<Account> disconnect(String workspaceId, Mode mode, String id) {
        return Panache.withTransaction(() -> findOrFail(workspaceId, mode, id)
                        .flatMap(found -> accounts.findInTenantForUpdate(workspaceId, mode, id))
                        .flatMap(account -> {
                            if (Account.DISCONNECTED.equals(account.status)) {
                                return Uni.createFrom().item(new Disconnection(AccountViews.toWire(account), false));
                            }
                            Instant now = Timestamps.now(clock);
                            account.status = Account.DISCONNECTED;
                            account.healthStatus = AccountHealth.DISCONNECTED;
                            account.nextCheckAt = null;
                            account.disconnectedAt = now;
                            account.updatedAt = now;
                            return queueRevocation(account, now)
                                    .flatMap(queued -> credentials.delete(account.id))
                                    .flatMap(deleted -> cache.deleteAll(account.id))
                                    .flatMap(purged -> accounts.flush())
                                    .flatMap(flushed -> {
                                        Account wire = AccountViews.toWire(account);
                                        return events.record(
                                                        AccountEvent.DISCONNECTED,
                                                        workspaceId,
                                                        mode,
                                                        wire,
                                                        account.profileId,
                                                        links.issue(account, now)
                                                                .url())
                                                .replaceWith(new Disconnection(wire, true));
                                    });
                        }))
                .call(done -> !done.changed()
                        ? Uni.createFrom().voidItem()
                        : usage.disconnect(workspaceId, mode, id)
                                // The account is disconnected either way; a slot not freed now is logged for repair.
                                .onFailure()
                                .invoke(e -> LOG.errorf("the slot of disconnected account %s was not freed: %s", id, e))
                                .onFailure()
                                .recoverWithNull())
                .map(Disconnection::account);
    }

    private record Disconnection(Account account, boolean changed) {}

    /** YouTube only (spec): the stored grant, still encrypted, waits in the queue until Google has revoked it. */
    private Uni<Void> queueRevocation(AccountEntity account, Instant now) {
        if (!Platform.YOUTUBE.wireName().equals(account.platform)) {
            return Uni.createFrom().voidItem();
        }
        return credentials
                .find(account.id)
                .flatMap(sealedGrant -> sealedGrant == null
                        ? Uni.createFrom().voidItem()
                        : revocations.enqueue(
                                account.id,
                                account.workspaceId,
                                account.mode,
                                account.platform,
                                sealedGrant,
                                now,
                                now.plus(config.revocation().retention()),
                                now));
    }

    Uni<AccountEntity> findOrFail(String workspaceId, Mode mode, String id) {
        if (!IdPrefix.ACCOUNT.matches(id)) {
            return Uni.createFrom().failure(ApiException.notFound("account"));
        }
        return accounts.findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("account"));
    }

    static ApiException testModeOnly() {
        return new ApiException(ErrorCode.TEST_MODE_ONLY, "Sandbox accounts can be created with a test key only.");
    }

    private static String displayPlatform(Platform platform) {
        return switch (platform) {
            case TIKTOK -> "TikTok";
            case INSTAGRAM -> "Instagram";
            case FACEBOOK -> "Facebook";
            case YOUTUBE -> "YouTube";
            case PINTEREST -> "Pinterest";
            case LINKEDIN -> "LinkedIn";
        };
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
