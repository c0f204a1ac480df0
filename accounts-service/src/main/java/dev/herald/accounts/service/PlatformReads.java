package dev.herald.accounts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.PinterestBoardsReader;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderPage;
import dev.herald.accounts.provider.TikTokCreatorInfoReader;
import dev.herald.accounts.repository.ProviderReadCacheRepository;
import dev.herald.accounts.repository.ProviderReadCacheStatements;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.CachedRead;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.api.ListMeta;
import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TikTokPublishingOptions;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads from the platforms on behalf of an account: TikTok publishing options, Pinterest boards and their
 * sections. Test accounts answer simulated, deterministic data; live accounts ask the provider with their
 * current token ({@link ProviderAccessTokens}: renewed before it expires and once when refused), and a live answer is kept for {@code herald.accounts.provider-cache-ttl}, during which the same
 * read is served from the cache (and not metered).
 */
@ApplicationScoped
public class PlatformReads {
    public static final int MAX_BOARD_CURSOR_LENGTH = 8192;
    static final Pattern BOARD_ID = Pattern.compile("^[0-9]{1,40}$");
    private static final String BOARDS_KIND = "pinterest_boards";
    /** The cache key of TikTok publishing options (one answer per account). */
    private static final String PUBLISHING_OPTIONS = "publishing_options";

    private static final String SECTIONS_KIND = "pinterest_board_sections";
    /** Offsets into simulated lists, bookmarks of the provider's own. */
    private static final String OFFSET = "o:";

    private static final String BOOKMARK = "b:";

    private final AccountService accounts;
    private final ProviderAccessTokens tokens;
    private final ProviderReadCacheRepository cache;
    private final ProviderReadCacheStatements cachedReads;
    private final Instance<TikTokCreatorInfoReader> tiktok;
    private final Instance<PinterestBoardsReader> pinterest;
    private final CursorCodec cursors;
    private final ObjectMapper mapper;
    private final AccountsConfig config;
    private final Clock clock;

    public PlatformReads(
            AccountService accounts,
            ProviderAccessTokens tokens,
            ProviderReadCacheRepository cache,
            ProviderReadCacheStatements cachedReads,
            Instance<TikTokCreatorInfoReader> tiktok,
            Instance<PinterestBoardsReader> pinterest,
            CursorCodec cursors,
            ObjectMapper mapper,
            AccountsConfig config,
            Clock clock) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.cache = cache;
        this.cachedReads = cachedReads;
        this.tiktok = tiktok;
        this.pinterest = pinterest;
        this.cursors = cursors;
        this.mapper = mapper;
        this.config = config;
        this.clock = clock;
    }

    /** TikTok only, else {@code 422 publishing_options_unavailable}. */
    public Uni<CachedRead<TikTokPublishingOptions>> publishingOptions(String workspaceId, Mode mode, String id) {
        return Panache.withSession(() -> accounts.findOrFail(workspaceId, mode, id))
                .flatMap(account -> {
                    if (!Platform.TIKTOK.wireName().equals(account.platform)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.PUBLISHING_OPTIONS_UNAVAILABLE,
                                        "Publishing options exist for TikTok accounts only."));
                    }
                    requireConnected(account);
                    if (mode == Mode.TEST) {
                        return Uni.createFrom()
                                .item(new CachedRead<>(
                                        SandboxPlatformData.publishingOptions(
                                                account.id, account.name, account.username),
                                        false));
                    }
                    return cachedOrFresh(
                            account,
                            PUBLISHING_OPTIONS,
                            new TypeReference<TikTokPublishingOptions>() {},
                            token -> reader(tiktok, "TikTok").creatorInfo(token));
                });
    }

    /**
     * The publishing options of several TikTok accounts of one mode, by account id, for checking a post against
     * them: simulated for test accounts; for live ones the cached answer when fresh, else a fresh read (all
     * fresh reads at once, then cached). A provider that cannot answer fails the whole call with the same errors
     * as a single read ({@code 502 provider_error}, {@code 503} when TikTok is not configured), since a post
     * cannot be validated without them.
     */
    public Uni<Map<String, TikTokPublishingOptions>> publishingOptionsOf(
            Mode mode, List<AccountEntity> tiktokAccounts) {
        Map<String, TikTokPublishingOptions> options = new HashMap<>();
        if (tiktokAccounts.isEmpty()) {
            return Uni.createFrom().item(options);
        }
        if (mode == Mode.TEST) {
            tiktokAccounts.forEach(account -> options.put(
                    account.id, SandboxPlatformData.publishingOptions(account.id, account.name, account.username)));
            return Uni.createFrom().item(options);
        }
        Instant now = Timestamps.now(clock);
        List<String> ids = tiktokAccounts.stream().map(account -> account.id).toList();
        return cachedReads
                .findAll(ids, PUBLISHING_OPTIONS, now.minus(config.providerCacheTtl()))
                .flatMap(cached -> {
                    cached.forEach(
                            (id, json) -> options.put(id, read(json, new TypeReference<TikTokPublishingOptions>() {})));
                    List<AccountEntity> stale = tiktokAccounts.stream()
                            .filter(account -> !options.containsKey(account.id))
                            .toList();
                    if (stale.isEmpty()) {
                        return Uni.createFrom().item(options);
                    }
                    return freshPublishingOptions(stale, now).map(fresh -> {
                        options.putAll(fresh);
                        return options;
                    });
                });
    }

    /**
     * Reads every account's options from TikTok, one account after another (each may renew its token in a transaction
     * of its own, and a reactive session runs one statement at a time), then caches them all in one transaction.
     */
    private Uni<Map<String, TikTokPublishingOptions>> freshPublishingOptions(
            List<AccountEntity> accounts, Instant now) {
        TikTokCreatorInfoReader reader = reader(tiktok, "TikTok");
        return Multi.createFrom()
                .iterable(accounts)
                .onItem()
                .transformToUniAndConcatenate(
                        account -> withAccess(account, reader::creatorInfo).map(read -> Map.entry(account.id, read)))
                .collect()
                .asMap(Map.Entry::getKey, Map.Entry::getValue)
                .flatMap(fresh ->
                        Panache.withTransaction(() -> cacheAll(fresh, now)).replaceWith(fresh));
    }

    /** One statement after another: a reactive session runs one at a time. */
    private Uni<Void> cacheAll(Map<String, TikTokPublishingOptions> fresh, Instant now) {
        Uni<Void> storing = Uni.createFrom().voidItem();
        for (Map.Entry<String, TikTokPublishingOptions> entry : fresh.entrySet()) {
            storing = storing.flatMap(
                    stored -> cache.store(entry.getKey(), PUBLISHING_OPTIONS, write(entry.getValue()), now));
        }
        return storing;
    }

    /** Pinterest only; pages of at most {@code limit} boards. */
    public Uni<CachedRead<ListEnvelope<PinterestBoard>>> boards(
            String workspaceId, Mode mode, String id, String limit, String cursor) {
        return Panache.withSession(() -> accounts.findOrFail(workspaceId, mode, id))
                .flatMap(account -> {
                    requirePinterest(account);
                    CursorScope scope = new CursorScope(BOARDS_KIND, workspaceId, mode, account.id, Map.of());
                    int pageSize =
                            PageRequest.parse(limit, null, scope, cursors).limit();
                    String position = position(scope, cursor);
                    if (mode == Mode.TEST) {
                        return Uni.createFrom()
                                .item(new CachedRead<>(
                                        simulatedPage(
                                                SandboxPlatformData.boards(account.id), position, pageSize, scope),
                                        false));
                    }
                    String bookmark = bookmark(position);
                    return cachedOrFresh(
                                    account,
                                    "boards:" + pageSize + ":" + (bookmark == null ? "" : bookmark),
                                    new TypeReference<ProviderPage<PinterestBoard>>() {},
                                    token -> reader(pinterest, "Pinterest")
                                            .boards(token, config.pinterestTrialAccess(), bookmark, pageSize))
                            .map(read -> new CachedRead<>(providerPage(read.data(), scope), read.cached()));
                });
    }

    /** Sections of one of the account's boards; the cursor is bound to the account, the board and the mode. */
    public Uni<CachedRead<ListEnvelope<PinterestBoardSection>>> sections(
            String workspaceId, Mode mode, String id, String boardId, String limit, String cursor) {
        return Panache.withSession(() -> accounts.findOrFail(workspaceId, mode, id))
                .flatMap(account -> {
                    requirePinterest(account);
                    if (!BOARD_ID.matcher(boardId).matches()) {
                        return Uni.createFrom().failure(ApiException.notFound("board"));
                    }
                    CursorScope scope =
                            new CursorScope(SECTIONS_KIND, workspaceId, mode, account.id + "/" + boardId, Map.of());
                    int pageSize =
                            PageRequest.parse(limit, null, scope, cursors).limit();
                    String position = position(scope, cursor);
                    if (mode == Mode.TEST) {
                        List<PinterestBoardSection> sections = SandboxPlatformData.sections(account.id, boardId)
                                .orElseThrow(() -> ApiException.notFound("board"));
                        return Uni.createFrom()
                                .item(new CachedRead<>(simulatedPage(sections, position, pageSize, scope), false));
                    }
                    String bookmark = bookmark(position);
                    return cachedOrFresh(
                                    account,
                                    "sections:" + boardId + ":" + pageSize + ":" + (bookmark == null ? "" : bookmark),
                                    new TypeReference<ProviderPage<PinterestBoardSection>>() {},
                                    token -> reader(pinterest, "Pinterest")
                                            .sections(token, config.pinterestTrialAccess(), boardId, bookmark, pageSize)
                                            // Not the account's board: the same 404 as in test mode, not a provider
                                            // failure to retry.
                                            .onFailure(failure -> failure instanceof ProviderException refusal
                                                    && PinterestBoardsReader.BOARD_NOT_FOUND.equals(refusal.code()))
                                            .transform(failure -> ApiException.notFound("board")))
                            .map(read -> new CachedRead<>(providerPage(read.data(), scope), read.cached()));
                });
    }

    private <T> Uni<CachedRead<T>> cachedOrFresh(
            AccountEntity account, String readKey, TypeReference<T> type, Function<String, Uni<T>> fetch) {
        Instant now = Timestamps.now(clock);
        return cachedReads
                .find(account.id, readKey, now.minus(config.providerCacheTtl()))
                .flatMap(hit -> {
                    if (hit != null) {
                        return Uni.createFrom().item(new CachedRead<>(read(hit, type), true));
                    }
                    return withAccess(account, fetch)
                            .flatMap(fresh -> Panache.withTransaction(
                                            () -> cache.store(account.id, readKey, write(fresh), now))
                                    .replaceWith(new CachedRead<>(fresh, false)));
                });
    }

    /**
     * One read with the account's current token, as deliveries get it: renewed when it is about to
     * expire (TikTok's last a day), and once more when the platform refuses it, then read again. A grant the platform
     * revoked disconnects the account ({@code 409 conflict}, {@code grant_revoked}); other platform failures are
     * {@code 502 provider_error}.
     */
    private <T> Uni<T> withAccess(AccountEntity account, Function<String, Uni<T>> fetch) {
        Mode mode = Mode.fromWire(account.mode).orElseThrow();
        return tokens.current(account.workspaceId, mode, account.id, null)
                .flatMap(access -> fetch.apply(access.accessToken())
                        .onFailure(PlatformReads::refusedToken)
                        .recoverWithUni(refused -> tokens.current(
                                        account.workspaceId,
                                        mode,
                                        account.id,
                                        ProviderAccessTokens.sha256(access.accessToken()))
                                .flatMap(renewed -> fetch.apply(renewed.accessToken()))))
                .onFailure(ProviderException.class)
                .transform(failure -> providerError(account.id, (ProviderException) failure));
    }

    private static boolean refusedToken(Throwable failure) {
        return failure instanceof ProviderException refusal && refusal.revoked();
    }

    private String position(CursorScope scope, String cursor) {
        if (cursor == null) {
            return null;
        }
        if (cursor.isEmpty() || cursor.length() > MAX_BOARD_CURSOR_LENGTH) {
            throw ApiException.invalidParameter(
                    "cursor", "cursor must be 1 to " + MAX_BOARD_CURSOR_LENGTH + " characters.");
        }
        return cursors.decode(scope, cursor, MAX_BOARD_CURSOR_LENGTH).id();
    }

    private static String bookmark(String position) {
        if (position == null) {
            return null;
        }
        if (!position.startsWith(BOOKMARK)) {
            throw new ApiException(ErrorCode.INVALID_CURSOR, "The cursor is not valid for this list.");
        }
        return position.substring(BOOKMARK.length());
    }

    private <T> ListEnvelope<T> simulatedPage(List<T> items, String position, int pageSize, CursorScope scope) {
        int offset = 0;
        if (position != null) {
            try {
                offset = Integer.parseInt(position.substring(OFFSET.length()));
            } catch (RuntimeException e) {
                throw new ApiException(ErrorCode.INVALID_CURSOR, "The cursor is not valid for this list.");
            }
            if (!position.startsWith(OFFSET) || offset < 0 || offset > items.size()) {
                throw new ApiException(ErrorCode.INVALID_CURSOR, "The cursor is not valid for this list.");
            }
        }
        int end = Math.min(items.size(), offset + pageSize);
        boolean hasMore = end < items.size();
        String next = hasMore ? cursors.encode(scope, new CursorPosition(Instant.EPOCH, OFFSET + end)) : null;
        return new ListEnvelope<>(List.copyOf(items.subList(offset, end)), new ListMeta(next, hasMore));
    }

    private <T> ListEnvelope<T> providerPage(ProviderPage<T> page, CursorScope scope) {
        String next = page.nextBookmark() == null
                ? null
                : cursors.encode(scope, new CursorPosition(Instant.EPOCH, BOOKMARK + page.nextBookmark()));
        if (next != null && next.length() > MAX_BOARD_CURSOR_LENGTH) {
            throw new ApiException(ErrorCode.PROVIDER_ERROR, "Pinterest answered a page marker too long to pass on.");
        }
        return new ListEnvelope<>(page.items(), new ListMeta(next, next != null));
    }

    private static void requirePinterest(AccountEntity account) {
        if (!Platform.PINTEREST.wireName().equals(account.platform)) {
            // Boards are Pinterest's; another platform's account has none to list.
            throw new ApiException(ErrorCode.NOT_FOUND, "Boards exist for Pinterest accounts only.");
        }
        requireConnected(account);
    }

    private static void requireConnected(AccountEntity account) {
        if (!Account.CONNECTED.equals(account.status)) {
            throw reconnectionNeeded(account.id);
        }
    }

    private static ApiException reconnectionNeeded(String accountId) {
        return new ApiException(
                ErrorCode.CONFLICT,
                "The account is disconnected; reconnect it to read from the platform.",
                Map.of("account_id", accountId, "reason", "account_disconnected"));
    }

    private static ApiException providerError(String accountId, ProviderException failure) {
        return new ApiException(
                ErrorCode.PROVIDER_ERROR,
                "The platform refused or failed the read; try again later"
                        + (failure.revoked() ? " after reconnecting the account." : "."),
                Map.of(
                        "account_id",
                        accountId,
                        "provider_code",
                        failure.code() == null ? "unknown" : failure.code(),
                        "reconnect_required",
                        failure.revoked()));
    }

    private static <R> R reader(Instance<R> readers, String platform) {
        if (!readers.isResolvable()) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, platform + " is not configured on this server.");
        }
        return readers.get();
    }

    private <T> T read(String json, TypeReference<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a cached provider answer could not be read");
        }
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a provider answer could not be cached");
        }
    }
}
