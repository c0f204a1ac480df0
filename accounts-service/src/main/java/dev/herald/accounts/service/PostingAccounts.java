package dev.herald.accounts.service;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.repository.AccountHealthStatements;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The accounts a post names, with what posts-service validates the post against ({@code POST
 * /internal/accounts/lookup}). One query reads every account, whatever its status; TikTok accounts that are
 * connected and not reauth_required also carry their publishing options, and a broken account ({@link
 * AccountHealth#broken()}) its reconnect link, which a refusal passes on. Ids of another workspace or mode, or of no
 * account, are simply absent: the caller tells its customer which ones it does not know.
 */
@ApplicationScoped
public class PostingAccounts {
    private final AccountRepository accounts;
    private final PlatformReads reads;
    private final ReconnectLinks links;
    private final AccountHealthStatements healthChecks;
    private final HealthCheckPolicy policy;
    private final Clock clock;

    public PostingAccounts(
            AccountRepository accounts,
            PlatformReads reads,
            ReconnectLinks links,
            AccountHealthStatements healthChecks,
            HealthCheckPolicy policy,
            Clock clock) {
        this.accounts = accounts;
        this.reads = reads;
        this.links = links;
        this.healthChecks = healthChecks;
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * The accounts among {@code ids}, in the order first asked (an id asked twice is answered once). A TikTok grant
     * found refused for good while its options were read has just made its account reauth_required: the accounts are
     * looked up once more, so the post is refused for a broken account like any other, not failed as a platform error.
     */
    public Uni<List<AccountForPosting>> lookup(String workspaceId, Mode mode, List<String> ids) {
        return lookupOnce(workspaceId, mode, ids)
                .onFailure(PostingAccounts::reauthRequired)
                .recoverWithUni(refused -> lookupOnce(workspaceId, mode, ids));
    }

    /**
     * The same, for a post scheduled at {@code scheduledAt} (null: published now): each live account found connected
     * and healthy gets a check booked ahead of that time ({@link HealthCheckPolicy#beforeDue}), one per post, so a
     * grant that breaks meanwhile is known before the post is due. Test mode and immediate posts write nothing.
     */
    public Uni<List<AccountForPosting>> lookup(String workspaceId, Mode mode, List<String> ids, Instant scheduledAt) {
        Uni<List<AccountForPosting>> found = lookup(workspaceId, mode, ids);
        if (scheduledAt == null || mode != Mode.LIVE) {
            return found;
        }
        Instant checkAt = policy.beforeDue(scheduledAt, Timestamps.now(clock));
        return found.call(answer -> Multi.createFrom()
                .iterable(answer)
                .filter(account -> Account.CONNECTED.equals(account.account().status())
                        && !account.account().health().broken())
                .onItem()
                .transformToUniAndConcatenate(
                        account -> healthChecks.recordDueCheck(account.account().id(), checkAt))
                .collect()
                .last());
    }

    private static boolean reauthRequired(Throwable failure) {
        return failure instanceof ApiException refusal
                && refusal.code() == ErrorCode.CONFLICT
                && ProviderAccessTokens.REAUTH_REQUIRED_REASON.equals(
                        refusal.details().get("reason"));
    }

    private Uni<List<AccountForPosting>> lookupOnce(String workspaceId, Mode mode, List<String> ids) {
        // Only well-formed ids can exist; the others need no query (and an empty list none at all).
        List<String> wanted = List.copyOf(new LinkedHashSet<>(
                ids.stream().filter(IdPrefix.ACCOUNT::matches).toList()));
        if (wanted.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.withSession(() -> accounts.findAllInTenant(workspaceId, mode, wanted))
                .flatMap(found -> {
                    Map<String, AccountEntity> byId = new HashMap<>();
                    found.forEach(account -> byId.put(account.id, account));
                    // A broken account has no options to read (its grant is gone or refused), and no post can
                    // target it.
                    List<AccountEntity> connectedTikTok = found.stream()
                            .filter(account -> Platform.TIKTOK.wireName().equals(account.platform))
                            .filter(account -> Account.CONNECTED.equals(account.status))
                            .filter(account -> !AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus))
                            .toList();
                    return reads.publishingOptionsOf(mode, connectedTikTok).map(options -> {
                        Instant now = Timestamps.now(clock);
                        List<AccountForPosting> answer = new ArrayList<>();
                        for (String id : wanted) {
                            AccountEntity account = byId.get(id);
                            if (account != null) {
                                Account wire = AccountViews.toWire(account);
                                String reconnectUrl = wire.health().broken()
                                        ? links.issue(account, now).url()
                                        : null;
                                answer.add(new AccountForPosting(wire, options.get(id), reconnectUrl));
                            }
                        }
                        return answer;
                    });
                });
    }
}
