package dev.herald.accounts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.repository.ProviderReadCacheRepository;
import dev.herald.accounts.repository.ProviderReadCacheStatements;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.CachedRead;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A live account's reads from its platform ({@link PlatformReads}): made with the account's current token
 * ({@link ProviderAccessTokens}: renewed before it expires and once when refused), and each answer kept, as JSON, for
 * {@code herald.accounts.provider-cache-ttl}, during which the same read is served from the cache.
 */
@ApplicationScoped
public class CachedProviderReads {

    private final ProviderAccessTokens tokens;
    private final ProviderReadCacheRepository cache;
    private final ProviderReadCacheStatements cachedReads;
    private final ObjectMapper mapper;
    private final AccountsConfig config;
    private final Clock clock;

    public CachedProviderReads(
            ProviderAccessTokens tokens,
            ProviderReadCacheRepository cache,
            ProviderReadCacheStatements cachedReads,
            ObjectMapper mapper,
            AccountsConfig config,
            Clock clock) {
        this.tokens = tokens;
        this.cache = cache;
        this.cachedReads = cachedReads;
        this.mapper = mapper;
        this.config = config;
        this.clock = clock;
    }

    <T> Uni<CachedRead<T>> cachedOrFresh(
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
     * refused for good makes the account reauth_required ({@code 409 conflict}, {@code account_reauth_required} with
     * its {@code reconnect_url}); other platform failures are {@code 502 provider_error}.
     */
    <T> Uni<T> withAccess(AccountEntity account, Function<String, Uni<T>> fetch) {
        Mode mode = Mode.fromWire(account.mode).orElseThrow();
        return tokens.current(account.workspaceId, mode, account.id, null)
                .flatMap(access -> fetch.apply(access.accessToken())
                        .onFailure(CachedProviderReads::refusedToken)
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

    /** The fresh answers cached under {@code readKey} of the accounts that have one, by account id. */
    <T> Uni<Map<String, T>> cachedAll(List<String> accountIds, String readKey, TypeReference<T> type, Instant now) {
        return cachedReads
                .findAll(accountIds, readKey, now.minus(config.providerCacheTtl()))
                .map(cached -> {
                    Map<String, T> answers = new HashMap<>();
                    cached.forEach((id, json) -> answers.put(id, read(json, type)));
                    return answers;
                });
    }

    /** One statement after another: a reactive session runs one at a time. */
    <T> Uni<Void> storeAll(Map<String, T> fresh, String readKey, Instant now) {
        Uni<Void> storing = Uni.createFrom().voidItem();
        for (Map.Entry<String, T> entry : fresh.entrySet()) {
            storing = storing.flatMap(stored -> cache.store(entry.getKey(), readKey, write(entry.getValue()), now));
        }
        return storing;
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
