package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;
import dev.herald.posts.provider.ActingAccount;
import dev.herald.posts.provider.PlatformFailures;
import dev.herald.posts.provider.TokenRefused;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Function;

/**
 * Platform calls as a live account, with the token accounts-service hands out (grants stay there, refreshed under a row
 * lock so concurrent callers refresh once): live comments and post analytics call the platforms the same way.
 */
@ApplicationScoped
public class ActingAccounts {
    private final AccountsClient accounts;

    public ActingAccounts(AccountsClient accounts) {
        this.accounts = accounts;
    }

    public Uni<ActingAccount> acting(String workspaceId, Account account) {
        return accounts.access(workspaceId, Mode.LIVE, account.id(), null)
                .map(access -> new ActingAccount(access, account.name(), account.username()));
    }

    /** The call; after a refused token, once more with the token accounts-service renewed, and no more. */
    public <T> Uni<T> renewingOnce(
            String workspaceId, ActingAccount acting, Platform platform, Function<ActingAccount, Uni<T>> call) {
        return call.apply(acting)
                .onFailure(TokenRefused.class)
                .recoverWithUni(refused -> accounts.access(
                                workspaceId,
                                Mode.LIVE,
                                acting.access().accountId(),
                                ((TokenRefused) refused).refusedToken())
                        .flatMap(renewed -> call.apply(acting.with(renewed)))
                        .onFailure(TokenRefused.class)
                        .transform(again -> PlatformFailures.refusedAgain(platform, acting)));
    }

    /** accounts-service's 409: the grant is revoked or the account disconnected meanwhile. */
    public static boolean cannotActAs(Throwable failure) {
        return failure instanceof ApiException api && api.code() == ErrorCode.CONFLICT;
    }
}
