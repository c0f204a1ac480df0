package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Comment;
import dev.herald.common.wire.Platform;
import dev.herald.posts.model.CommentEntity;
import dev.herald.posts.repository.CommentRepository;
import dev.herald.posts.repository.PostRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Comments on published posts and replies to them. Test mode answers from the simulated audience
 * ({@link SandboxComments}, written at a target's first read) and keeps replies; live mode reads the platforms'
 * comments into the same table and replies on the platforms ({@link LiveComments}).
 */
@ApplicationScoped
public class CommentService {
    static final String CURSOR_KIND = "comments";
    /** Each platform's own reply limit, in characters. */
    static final Map<Platform, Integer> REPLY_LIMITS = Map.of(
            Platform.TIKTOK,
            150,
            Platform.INSTAGRAM,
            2200,
            Platform.FACEBOOK,
            8000,
            Platform.YOUTUBE,
            10000,
            Platform.LINKEDIN,
            1250,
            Platform.PINTEREST,
            500);

    private final CommentRepository comments;
    private final PostRepository posts;
    private final AccountsClient accounts;
    private final LiveComments live;
    private final CursorCodec cursors;
    private final Clock clock;

    public CommentService(
            CommentRepository comments,
            PostRepository posts,
            AccountsClient accounts,
            LiveComments live,
            CursorCodec cursors,
            Clock clock) {
        this.comments = comments;
        this.posts = posts;
        this.accounts = accounts;
        this.live = live;
        this.cursors = cursors;
        this.clock = clock;
    }

    /**
     * The comments on a post and/or an account, newest first; 404 when either is not the caller's. A live first page
     * reads the platforms first (unless read within the freshness window); later pages page through what is stored.
     */
    public Uni<ListEnvelope<Comment>> list(
            String workspaceId, Mode mode, String postId, String accountId, String limit, String cursor) {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("post_id", postId);
        filters.put("account_id", accountId);
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, filters);
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        Uni<Void> parents = Uni.createFrom().voidItem();
        if (accountId != null) {
            parents = parents.chain(() -> account(workspaceId, mode, accountId).map(account -> {
                if (!offered(mode, account.platform())) {
                    throw commentsUnavailable(mode, account.platform());
                }
                return null;
            }));
        }
        if (postId != null) {
            parents = parents.chain(() -> Panache.withSession(() -> posts.findInTenant(workspaceId, mode, postId))
                    .onItem()
                    .ifNull()
                    .failWith(() -> ApiException.notFound("post"))
                    .replaceWithVoid());
        }
        if (mode == Mode.LIVE && cursor == null) {
            parents = parents.chain(() -> live.refresh(workspaceId, postId, accountId));
        }
        if (mode == Mode.TEST && cursor == null) {
            parents = parents.chain(() -> Panache.withTransaction(() -> comments.arriveSimulated(
                            workspaceId,
                            postId,
                            accountId,
                            Timestamps.now(clock),
                            SandboxComments.AUDIENCE,
                            SandboxComments.UNSUPPORTED)))
                    .replaceWithVoid();
        }
        return parents.chain(() -> Panache.withSession(() -> comments.listPage(
                        workspaceId, mode, postId, accountId, page.after(), page.fetchSize())
                .map(rows -> Page.of(
                        rows,
                        page,
                        row -> new CursorPosition(row.createdAt, row.id),
                        CommentService::toWire,
                        scope,
                        cursors))));
    }

    /**
     * A reply, posted as the account the comment was made to (on the platform, in live mode). {@code bodyErrors}: what
     * the body's own rules found ({@code commentId} or {@code text} null when they failed); answered in one 422 with
     * what the comment's lookup finds (no such comment, the platform's reply limit, a disconnected account).
     */
    public Uni<Comment> reply(
            String workspaceId, Mode mode, String commentId, String text, List<FieldError> bodyErrors) {
        if (commentId == null) {
            return Uni.createFrom().failure(ApiException.validationFailed(bodyErrors));
        }
        return Panache.withSession(() -> comments.findInTenant(workspaceId, mode, commentId))
                .flatMap(parent -> {
                    List<FieldError> errors = new ArrayList<>(bodyErrors);
                    if (parent == null) {
                        errors.add(new FieldError(
                                "comment_id",
                                "invalid_value",
                                "No comment " + commentId + " exists in this workspace and mode."));
                        throw ApiException.validationFailed(errors);
                    }
                    Platform platform = Platform.fromWire(parent.platform).orElseThrow();
                    if (!offered(mode, platform)) {
                        throw errors.isEmpty()
                                ? commentsUnavailable(mode, platform)
                                : ApiException.validationFailed(errors);
                    }
                    int limit = REPLY_LIMITS.get(platform);
                    if (text != null && text.codePointCount(0, text.length()) > limit) {
                        errors.add(new FieldError(
                                "text",
                                "too_long",
                                platform.displayName() + " replies are at most " + limit + " characters."));
                    }
                    return account(workspaceId, mode, parent.accountId).flatMap(account -> {
                        if (!Account.CONNECTED.equals(account.status())) {
                            errors.add(new FieldError(
                                    "comment_id",
                                    "invalid_value",
                                    "Account " + account.id() + " is disconnected; reconnect it to reply."));
                        }
                        if (!errors.isEmpty()) {
                            throw ApiException.validationFailed(errors);
                        }
                        if (mode == Mode.LIVE) {
                            Uni<CommentEntity> posted = thread(workspaceId, mode, parent)
                                    .flatMap(thread -> live.reply(workspaceId, thread, account, text));
                            return posted.map(CommentService::toWire);
                        }
                        CommentEntity reply = new CommentEntity();
                        reply.id = ResourceIds.newId(IdPrefix.COMMENT);
                        reply.workspaceId = workspaceId;
                        reply.mode = mode.wireName();
                        reply.accountId = parent.accountId;
                        reply.postId = parent.postId;
                        reply.platform = parent.platform;
                        // Threads are one level deep, as on the platforms: a reply to a reply joins its
                        // thread.
                        reply.parentId = parent.parentId == null ? parent.id : parent.parentId;
                        reply.text = text;
                        reply.authorName = account.name();
                        reply.authorUsername = account.username();
                        reply.fromAccount = true;
                        reply.createdAt = Timestamps.now(clock);
                        return Panache.withTransaction(() -> comments.persist(reply))
                                .map(CommentService::toWire);
                    });
                });
    }

    private Uni<Account> account(String workspaceId, Mode mode, String accountId) {
        return accounts.lookup(workspaceId, mode, List.of(accountId)).map(found -> {
            AccountForPosting account = found.get(accountId);
            if (account == null) {
                throw ApiException.notFound("account");
            }
            return account.account();
        });
    }

    /**
     * The top-level comment of the parent's thread: the platforms take replies to top-level comments only (a reply
     * to a reply goes to its thread, as Instagram and YouTube do themselves).
     */
    private Uni<CommentEntity> thread(String workspaceId, Mode mode, CommentEntity parent) {
        Uni<CommentEntity> top = parent.parentId == null
                ? Uni.createFrom().item(parent)
                : Panache.withSession(() -> comments.findInTenant(workspaceId, mode, parent.parentId));
        return top.map(thread -> {
            if (thread == null || thread.providerCommentId == null) {
                throw ApiException.validationFailed(List.of(new FieldError(
                        "comment_id",
                        "invalid_value",
                        "Comment " + parent.id + " cannot be answered on " + parent.platform + ".")));
            }
            return thread;
        });
    }

    private boolean offered(Mode mode, Platform platform) {
        return mode == Mode.TEST ? SandboxComments.supported(platform) : live.supports(platform);
    }

    private static ApiException commentsUnavailable(Mode mode, Platform platform) {
        if (mode == Mode.LIVE && platform == Platform.TIKTOK) {
            return new ApiException(
                    ErrorCode.COMMENTS_UNAVAILABLE,
                    "TikTok's public APIs (Content Posting, Display) do not "
                            + "let apps like Herald read or answer comments, so live TikTok accounts have no comments here.");
        }
        return new ApiException(
                ErrorCode.COMMENTS_UNAVAILABLE, platform.displayName() + " does not offer comments through its API.");
    }

    static Comment toWire(CommentEntity comment) {
        return new Comment(
                comment.id,
                comment.accountId,
                comment.postId,
                Platform.fromWire(comment.platform).orElseThrow(),
                comment.parentId,
                comment.text,
                comment.authorName,
                comment.authorUsername,
                comment.fromAccount,
                comment.createdAt);
    }
}
