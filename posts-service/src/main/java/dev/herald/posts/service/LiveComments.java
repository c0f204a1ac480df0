package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.client.UsageClient;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.ReservationBatch;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.config.CommentsConfig;
import dev.herald.posts.model.CommentEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.provider.ActingAccount;
import dev.herald.posts.provider.CommentsProvider;
import dev.herald.posts.provider.CommentsProviders;
import dev.herald.posts.provider.ProviderComment;
import dev.herald.posts.repository.CommentRepository;
import dev.herald.posts.repository.PostTargetRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * Live comments: reads the platforms' comments into the comments table and posts replies on
 * the platforms. Every platform call is one comment request (spec section 8), reserved with usage-service before
 * the call, consumed when it succeeded and released when it did not, so a failed call is never charged and an
 * allowance that is used up refuses the request before any platform is called. A post's first comment
 * ({@code FirstCommentPosting}) is posted here too, charged as a reply.
 *
 * <p>Longer than 300 lines: reads, replies and first comments share the reservation, the acting account and the stored
 * rows, which read best in one place.
 */
@ApplicationScoped
public class LiveComments {
    private static final Logger LOG = Logger.getLogger(LiveComments.class);

    private final CommentsProviders providers;
    private final PostTargetRepository targets;
    private final CommentRepository comments;
    private final AccountsClient accounts;
    private final UsageClient usage;
    private final ActingAccounts actingAccounts;
    private final CommentsConfig config;
    private final Clock clock;

    public LiveComments(
            CommentsProviders providers,
            PostTargetRepository targets,
            CommentRepository comments,
            AccountsClient accounts,
            UsageClient usage,
            ActingAccounts actingAccounts,
            CommentsConfig config,
            Clock clock) {
        this.providers = providers;
        this.targets = targets;
        this.comments = comments;
        this.accounts = accounts;
        this.usage = usage;
        this.actingAccounts = actingAccounts;
        this.config = config;
        this.clock = clock;
    }

    /** A platform call about one target, and the comment request reserved for it. */
    private record Call(PostTargetEntity target, Account account, CommentsProvider provider, String reservationId) {}

    /** A call's outcome: the platform's comments, or null when the account could not be acted as. */
    private record Read(Call call, List<ProviderComment> comments) {}

    public boolean supports(Platform platform) {
        return providers.forPlatform(platform).isPresent();
    }

    /**
     * Reads from their platforms the comments of the post's live published targets (those on {@code accountId} when
     * given), or of the account's latest ones when no post is named, skipping targets read within the freshness
     * window. Fails with the first call's failure, every reservation given back.
     */
    public Uni<Void> refresh(String workspaceId, String postId, String accountId) {
        Instant freshSince = clock.instant().minus(config.freshness());
        return Panache.withSession(() -> postId != null
                        ? targets.forPost(postId)
                        : targets.latestPublished(accountId, config.accountPosts()))
                .map(found -> found.stream()
                        .filter(target -> accountId == null || accountId.equals(target.accountId))
                        .filter(target -> PostTarget.PUBLISHED.equals(target.status) && target.providerPostId != null)
                        .filter(target -> Platform.fromWire(target.platform)
                                .flatMap(providers::forPlatform)
                                .isPresent())
                        .filter(target -> target.commentsReadAt == null || target.commentsReadAt.isBefore(freshSince))
                        .toList())
                .flatMap(stale -> stale.isEmpty() ? Uni.createFrom().voidItem() : read(workspaceId, stale));
    }

    private Uni<Void> read(String workspaceId, List<PostTargetEntity> stale) {
        List<String> accountIds =
                stale.stream().map(target -> target.accountId).distinct().toList();
        return accounts.lookup(workspaceId, Mode.LIVE, accountIds).flatMap(found -> {
            List<Call> calls = new ArrayList<>();
            for (PostTargetEntity target : stale) {
                AccountForPosting account = found.get(target.accountId);
                // A disconnected account cannot be acted as: its comments are listed as last read, charged nothing.
                if (account != null
                        && Account.CONNECTED.equals(account.account().status())) {
                    calls.add(new Call(
                            target,
                            account.account(),
                            providers.forPlatform(account.account().platform()).orElseThrow(),
                            reservationId()));
                }
            }
            if (calls.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            ReservationBatch batch = new ReservationBatch(
                    calls.stream().map(call -> item(call.reservationId())).toList(), false);
            Instant readAt = clock.instant();
            return usage.reserve(workspaceId, Mode.LIVE, batch)
                    .chain(() -> Multi.createFrom()
                            .iterable(calls)
                            .onItem()
                            .transformToUniAndConcatenate(call -> readOne(workspaceId, call))
                            .collect()
                            .asList()
                            .call(reads -> store(workspaceId, reads, readAt))
                            // A failed read answers 5xx, which is never charged: the calls that did succeed are free.
                            .onFailure()
                            .call(failure -> giveBack(
                                    workspaceId,
                                    calls.stream().map(Call::reservationId).toList())))
                    .flatMap(reads -> settle(workspaceId, reads));
        });
    }

    private Uni<Read> readOne(String workspaceId, Call call) {
        return actingAccounts
                .acting(workspaceId, call.account())
                .flatMap(acting -> actingAccounts.renewingOnce(
                        workspaceId,
                        acting,
                        call.provider().platform(),
                        as -> call.provider().read(as, call.target().providerPostId)))
                .map(found -> new Read(call, found))
                .onFailure(ActingAccounts::cannotActAs)
                .recoverWithItem(new Read(call, null));
    }

    /**
     * The account cannot be replied as: the spec's {@code 409 conflict} with {@code reason: account_disconnected} (a
     * revoked grant disconnects the account: Herald can no longer act on it) and accounts-service's message, which says
     * why.
     */
    private static ApiException disconnected(Account account, Throwable failure) {
        return new ApiException(
                ErrorCode.CONFLICT,
                failure.getMessage(),
                Map.of("reason", "account_disconnected", "account_id", account.id()));
    }

    private Uni<Void> store(String workspaceId, List<Read> reads, Instant readAt) {
        return Panache.withTransaction(() -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Read read : reads) {
                if (read.comments() == null) {
                    continue;
                }
                PostTargetEntity target = read.call().target();
                // Parents first, so a reply finds the row it answers.
                List<ProviderComment> ordered = read.comments().stream()
                        .sorted(Comparator.comparing((ProviderComment c) -> c.parentProviderId() != null)
                                .thenComparing(ProviderComment::createdAt))
                        .toList();
                for (ProviderComment comment : ordered) {
                    CommentEntity row = row(workspaceId, target.postId, target.accountId, target.platform, comment);
                    chain = chain.chain(() -> comments.upsertLive(row));
                }
                chain = chain.chain(() -> targets.markCommentsRead(target.postId, target.accountId, readAt));
            }
            return chain;
        });
    }

    /** Consumes the comment requests whose call succeeded and gives back the others. */
    private Uni<Void> settle(String workspaceId, List<Read> reads) {
        List<Uni<Void>> settled = new ArrayList<>();
        for (Read read : reads) {
            String id = read.call().reservationId();
            settled.add(read.comments() != null ? consume(workspaceId, id) : release(workspaceId, id));
        }
        return Uni.join().all(settled).andCollectFailures().replaceWithVoid();
    }

    /**
     * Posts {@code text} on the platform in reply to {@code thread} (a top-level live comment; platforms thread
     * replies under top-level comments only), as the account; the stored reply.
     */
    public Uni<CommentEntity> reply(String workspaceId, CommentEntity thread, Account account, String text) {
        return post(
                workspaceId,
                account,
                thread.postId,
                thread.platform,
                (provider, as) -> provider.reply(as, thread.providerCommentId, text));
    }

    /**
     * Posts {@code text} on the platform as a top-level comment on the account's published post (a post's first
     * comment), as the account; the stored comment. Charged as a reply is.
     */
    public Uni<CommentEntity> comment(
            String workspaceId, String postId, String providerPostId, Account account, String text) {
        return post(
                workspaceId,
                account,
                postId,
                account.platform().wireName(),
                (provider, as) -> provider.comment(as, providerPostId, text));
    }

    /** One platform call that creates a comment, as the account, reserved and then consumed or released. */
    private Uni<CommentEntity> post(
            String workspaceId,
            Account account,
            String postId,
            String platformName,
            BiFunction<CommentsProvider, ActingAccount, Uni<ProviderComment>> call) {
        Platform platform = Platform.fromWire(platformName).orElseThrow();
        CommentsProvider provider = providers.forPlatform(platform).orElseThrow();
        String reservationId = reservationId();
        return usage.reserve(workspaceId, Mode.LIVE, new ReservationBatch(List.of(item(reservationId)), false))
                .chain(() -> actingAccounts
                        .acting(workspaceId, account)
                        .flatMap(acting -> actingAccounts.renewingOnce(
                                workspaceId, acting, platform, as -> call.apply(provider, as)))
                        .flatMap(created -> {
                            CommentEntity row = row(workspaceId, postId, account.id(), platformName, created);
                            return Panache.withTransaction(() -> comments.upsertLive(row))
                                    .replaceWith(row);
                        })
                        .onFailure(ActingAccounts::cannotActAs)
                        .transform(failure -> disconnected(account, failure))
                        .onFailure()
                        .call(failure -> release(workspaceId, reservationId)))
                .call(() -> consume(workspaceId, reservationId));
    }

    private CommentEntity row(
            String workspaceId, String postId, String accountId, String platform, ProviderComment comment) {
        CommentEntity row = new CommentEntity();
        row.id = stableId(accountId, comment.providerId());
        row.workspaceId = workspaceId;
        row.mode = Mode.LIVE.wireName();
        row.accountId = accountId;
        row.postId = postId;
        row.platform = platform;
        row.parentId = comment.parentProviderId() == null ? null : stableId(accountId, comment.parentProviderId());
        row.text = comment.text();
        row.authorName = comment.authorName();
        row.authorUsername = comment.authorUsername();
        row.fromAccount = comment.fromAccount();
        // PostgreSQL keeps microseconds: the answer shows what a later read will.
        row.createdAt = comment.createdAt().truncatedTo(ChronoUnit.MICROS);
        row.providerCommentId = comment.providerId();
        return row;
    }

    /** The Herald id of a platform comment: the same for every read of it, so concurrent reads upsert one row. */
    static String stableId(String accountId, String providerCommentId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest((accountId + ":" + providerCommentId).getBytes(StandardCharsets.UTF_8));
            return "cmt_" + HexFormat.of().formatHex(hash).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String reservationId() {
        return "comments-" + UUID.randomUUID();
    }

    private static ReservationBatch.Item item(String reservationId) {
        return new ReservationBatch.Item(reservationId, UsageReservation.METER_COMMENT_REQUESTS, 1, null);
    }

    private Uni<Void> consume(String workspaceId, String reservationId) {
        return usage.consume(workspaceId, Mode.LIVE, reservationId, null)
                .onFailure()
                .recoverWithUni(failure -> {
                    // The call succeeded and its answer is the customer's. Left reserved, the unit still counts against
                    // the
                    // allowance, as a consumed one would.
                    LOG.warnf("comment request %s not consumed: %s", reservationId, failure.toString());
                    return Uni.createFrom().voidItem();
                });
    }

    private Uni<Void> release(String workspaceId, String reservationId) {
        return usage.release(workspaceId, Mode.LIVE, reservationId).onFailure().recoverWithUni(failure -> {
            LOG.warnf("comment request %s not released: %s", reservationId, failure.toString());
            return Uni.createFrom().voidItem();
        });
    }

    private Uni<Void> giveBack(String workspaceId, List<String> reservationIds) {
        return Uni.join()
                .all(reservationIds.stream().map(id -> release(workspaceId, id)).toList())
                .andCollectFailures()
                .replaceWithVoid();
    }
}
