package dev.herald.accounts.rest;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.rest.HostedPageViews.AccountView;
import dev.herald.accounts.rest.HostedPageViews.BrandView;
import dev.herald.accounts.rest.HostedPageViews.MessageView;
import dev.herald.accounts.rest.HostedPageViews.PlatformView;
import dev.herald.accounts.rest.HostedPageViews.SessionView;
import dev.herald.accounts.service.BrandingService;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.accounts.service.ConnectRefusal;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.HostedConnectFlow;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The pages {@link HostedConnectResource} answers with: a session's page (its platforms, the accounts it connected,
 * the YouTube consent step) and the pages that explain a refusal.
 */
@ApplicationScoped
public class HostedConnectPages {
    private static final Logger LOG = Logger.getLogger(HostedConnectPages.class);

    private final HostedConnectFlow flow;
    private final ConnectBrowserBinding binding;
    private final HostedPageResponses responses;
    private final AccountRepository accounts;
    private final AccountsConfig accountsConfig;
    private final BrandingService brandings;

    public HostedConnectPages(
            HostedConnectFlow flow,
            ConnectBrowserBinding binding,
            HostedPageResponses responses,
            AccountRepository accounts,
            AccountsConfig accountsConfig,
            BrandingService brandings) {
        this.flow = flow;
        this.binding = binding;
        this.responses = responses;
        this.accounts = accounts;
        this.accountsConfig = accountsConfig;
        this.brandings = brandings;
    }

    Uni<Response.ResponseBuilder> session(
            ConnectSessionEntity session,
            String cookie,
            int status,
            String connectedAccountId,
            String consentedAccountId,
            String error) {
        List<String> ids = ConnectSessionService.accountIds(session);
        Uni<List<AccountEntity>> connected = ids.isEmpty()
                ? Uni.createFrom().item(List.of())
                : Panache.withSession(() -> accounts.list(
                        "id in ?1 and workspaceId = ?2 and mode = ?3", ids, session.workspaceId, session.mode));
        // One after the other: the two reads may share the reactive session, which runs one statement at a time.
        return connected.flatMap(rows -> flow.boundAccount(session)
                .flatMap(bound -> brand(session)
                        .map(brand -> sessionPage(
                                session,
                                cookie,
                                status,
                                connectedAccountId,
                                consentedAccountId,
                                error,
                                ids,
                                rows,
                                bound,
                                brand))));
    }

    /**
     * The session's workspace's branding in the session's mode (never another's), its display name replaced by the
     * session's own when it has one.
     */
    Uni<BrandView> brand(ConnectSessionEntity session) {
        return brandings
                .forPage(session.workspaceId, Mode.fromWire(session.mode).orElseThrow())
                .map(row -> {
                    String name =
                            session.displayName != null ? session.displayName : row == null ? null : row.displayName;
                    if (row == null) {
                        return new BrandView(name, null, null, null, null);
                    }
                    return new BrandView(
                            name,
                            BrandingService.logoPath(row.logoSha256),
                            row.accentColor,
                            row.supportUrl,
                            row.privacyUrl);
                });
    }

    private Response.ResponseBuilder sessionPage(
            ConnectSessionEntity session,
            String cookie,
            int status,
            String connectedAccountId,
            String consentedAccountId,
            String error,
            List<String> ids,
            List<AccountEntity> rows,
            AccountEntity bound,
            BrandView brand) {
        Map<String, Integer> order = ids.stream().collect(Collectors.toMap(Function.identity(), ids::indexOf));
        List<AccountEntity> sorted = rows.stream()
                .sorted(Comparator.comparing(row -> order.get(row.id)))
                .toList();
        List<AccountView> views = sorted.stream().map(HostedConnectPages::view).toList();
        List<AccountView> consentNeeded = sorted.stream()
                .filter(row -> Platform.YOUTUBE.wireName().equals(row.platform)
                        && Account.CONNECTED.equals(row.status)
                        && row.consentAcceptedAt == null)
                .map(HostedConnectPages::view)
                .toList();
        AccountView justConnected = sorted.stream()
                .filter(row -> row.id.equals(connectedAccountId))
                .findFirst()
                .map(HostedConnectPages::view)
                .orElse(null);
        String notice = justConnected != null
                ? null
                : sorted.stream()
                        .filter(row -> row.id.equals(consentedAccountId) && row.consentAcceptedAt != null)
                        .findFirst()
                        .map(row -> "Analytics consent recorded for " + row.name + ".")
                        .orElse(null);
        SessionView page = new SessionView(
                session.id,
                Mode.TEST.wireName().equals(session.mode),
                bound == null ? null : view(bound),
                binding.csrfToken(cookie),
                flow.offeredPlatforms(session).stream().map(PlatformView::of).toList(),
                views,
                consentNeeded,
                justConnected,
                notice,
                error,
                accountsConfig.youtubePolicyVersion());
        return responses.page(status, session.embedOrigin, (nonce, origin) -> HostedPages.session(page, brand, nonce));
    }

    /** The closing page of a completed session that has no redirect URL, in the session's branding. */
    Uni<Response> allSet(ConnectSessionEntity session) {
        return brand(session)
                .map(brand -> responses
                        .page(
                                200,
                                session.embedOrigin,
                                (nonce, origin) -> HostedPages.message(
                                        new MessageView(
                                                "You're all set",
                                                "Your accounts are connected. You can close this page.",
                                                null,
                                                null),
                                        brand,
                                        nonce))
                        .build());
    }

    /** A refusal of the connection itself (slot limit, monthly allowance, profile gone): the page explains it. */
    Uni<Response> connectRefused(ConnectSessionEntity session, String cookie, ApiException refused) {
        String message = switch (refused.code()) {
            case ACCOUNT_LIMIT_REACHED -> "No more accounts can be connected: the account limit is reached.";
            case USAGE_LIMIT_EXCEEDED -> "No more new accounts can be connected this month.";
            case CONFLICT -> "This account cannot be changed right now: " + refused.getMessage();
            default -> "This step could not be completed (" + refused.code().code() + ").";
        };
        return session(session, cookie, refused.code().httpStatus(), null, null, message)
                .map(page -> {
                    // A 429's Retry-After (the new-connection allowance's reset) reaches the browser too.
                    refused.headers().forEach(page::header);
                    return page.build();
                });
    }

    /** The page of a step refused ({@link ConnectRefusal}), or of one that failed unexpectedly (500). */
    Response refusal(Throwable failure) {
        ConnectRefusal refusal;
        if (failure instanceof ConnectRefusal known) {
            refusal = known;
        } else {
            LOG.errorf(failure, "hosted connect page failed");
            return responses
                    .page(
                            500,
                            null,
                            (nonce, origin) -> HostedPages.message(
                                    new MessageView(
                                            "Something went wrong",
                                            "We could not complete this step. Try again in a moment.",
                                            "internal_error",
                                            null),
                                    BrandView.NEUTRAL,
                                    nonce))
                    .build();
        }
        ConnectRefusal.Reason reason = refusal.reason();
        String back = refusal.sessionId() == null ? null : "/connect/sessions/" + refusal.sessionId();
        return responses
                .page(
                        reason.status(),
                        null,
                        (nonce, origin) -> HostedPages.message(
                                new MessageView(reason.title(), refusal.message(), reason.code(), back),
                                BrandView.NEUTRAL,
                                nonce))
                .build();
    }

    private static AccountView view(AccountEntity account) {
        return new AccountView(
                account.id,
                Platform.fromWire(account.platform).orElseThrow().displayName(),
                account.name,
                account.username,
                account.authorizationRevision);
    }
}
