package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.rest.HostedPageViews.AccountView;
import dev.herald.accounts.rest.HostedPageViews.BrandView;
import dev.herald.accounts.rest.HostedPageViews.MessageView;
import dev.herald.accounts.rest.HostedPageViews.PageFrame;
import dev.herald.accounts.rest.HostedPageViews.PlatformView;
import dev.herald.accounts.rest.HostedPageViews.SessionView;
import dev.herald.accounts.service.BrandingService;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.accounts.service.ConnectRefusal;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.HostedConnectFlow;
import dev.herald.accounts.service.HostedPageLocales;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.qute.RawString;
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
 * the YouTube consent step), the closing page and the pages that explain a refusal, each in the language
 * {@link HostedPageLocales} chooses from the session's {@code locale} and the browser's {@code Accept-Language}.
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
    private final ObjectMapper json;

    public HostedConnectPages(
            HostedConnectFlow flow,
            ConnectBrowserBinding binding,
            HostedPageResponses responses,
            AccountRepository accounts,
            AccountsConfig accountsConfig,
            BrandingService brandings,
            ObjectMapper json) {
        this.flow = flow;
        this.binding = binding;
        this.responses = responses;
        this.accounts = accounts;
        this.accountsConfig = accountsConfig;
        this.brandings = brandings;
        this.json = json;
    }

    /** A session page's words: in the session's language, else the browser's. */
    static HostedPageText text(ConnectSessionEntity session, String acceptLanguage) {
        return new HostedPageText(HostedPageLocales.choose(session.locale, acceptLanguage));
    }

    /**
     * The session's page. {@code error}: what the page says went wrong, in its language (null: nothing).
     */
    Uni<Response.ResponseBuilder> session(
            ConnectSessionEntity session,
            String cookie,
            int status,
            String connectedAccountId,
            String consentedAccountId,
            Function<HostedPageText, String> error,
            String acceptLanguage) {
        HostedPageText text = text(session, acceptLanguage);
        // One after the other: the reads may share the reactive session, which runs one statement at a time.
        return connectedAccounts(session)
                .flatMap(rows -> flow.boundAccount(session)
                        .flatMap(bound -> brand(session)
                                .map(brand -> sessionPage(
                                        session,
                                        cookie,
                                        status,
                                        connectedAccountId,
                                        consentedAccountId,
                                        error == null ? null : error.apply(text),
                                        rows,
                                        bound,
                                        text,
                                        brand))));
    }

    /**
     * The session's workspace's branding in the session's mode (never another's), its name replaced by the session's
     * own display name when it has one; Herald's neutral look for whatever is not set.
     */
    Uni<BrandView> brand(ConnectSessionEntity session) {
        return brandings
                .forPage(session.workspaceId, Mode.fromWire(session.mode).orElseThrow())
                .map(row -> {
                    String name = session.displayName != null
                            ? session.displayName
                            : row != null && row.displayName != null ? row.displayName : BrandView.HERALD.name();
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

    /** The accounts the session connected, in connection order. */
    private Uni<List<AccountEntity>> connectedAccounts(ConnectSessionEntity session) {
        List<String> ids = ConnectSessionService.accountIds(session);
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Map<String, Integer> order = ids.stream().collect(Collectors.toMap(Function.identity(), ids::indexOf));
        return Panache.withSession(() -> accounts.list(
                        "id in ?1 and workspaceId = ?2 and mode = ?3", ids, session.workspaceId, session.mode))
                .map(rows -> rows.stream()
                        .sorted(Comparator.comparing(row -> order.get(row.id)))
                        .toList());
    }

    private Response.ResponseBuilder sessionPage(
            ConnectSessionEntity session,
            String cookie,
            int status,
            String connectedAccountId,
            String consentedAccountId,
            String error,
            List<AccountEntity> sorted,
            AccountEntity bound,
            HostedPageText text,
            BrandView brand) {
        List<AccountView> views =
                sorted.stream().map(row -> AccountView.of(row, text)).toList();
        List<AccountView> consentNeeded = sorted.stream()
                .filter(row -> Platform.YOUTUBE.wireName().equals(row.platform)
                        && Account.CONNECTED.equals(row.status)
                        && row.consentAcceptedAt == null)
                .map(row -> AccountView.of(row, text))
                .toList();
        AccountView justConnected = views.stream()
                .filter(view -> view.id().equals(connectedAccountId))
                .findFirst()
                .orElse(null);
        String notice = justConnected != null
                ? null
                : sorted.stream()
                        .filter(row -> row.id.equals(consentedAccountId) && row.consentAcceptedAt != null)
                        .findFirst()
                        .map(row -> text.messages().consent_recorded(HostedPageText.isolated(row.name, null)))
                        .orElse(null);
        SessionView page = new SessionView(
                session.id,
                Mode.TEST.wireName().equals(session.mode),
                bound == null ? null : AccountView.of(bound, text),
                binding.csrfToken(cookie),
                flow.offeredPlatforms(session).stream()
                        .map(platform -> PlatformView.of(platform, text))
                        .toList(),
                views,
                consentNeeded,
                justConnected,
                notice == null ? null : new RawString(notice),
                error,
                accountsConfig.youtubePolicyVersion(),
                text.date(session.expiresAt),
                brand.name());
        return responses.page(
                status,
                session.embedOrigin,
                nonce -> HostedPages.session(page, new PageFrame(text.lang(), nonce, brand, session.embedOrigin, null))
                        .setLocale(text.locale()));
    }

    /**
     * The closing page of a completed session that has no redirect URL: the accounts connected, and, when the page
     * may be framed, the completion message its script posts to the embedding page (docs/accounts-and-connect.md).
     */
    Uni<Response> allSet(ConnectSessionEntity session, String acceptLanguage) {
        HostedPageText text = text(session, acceptLanguage);
        return connectedAccounts(session)
                .flatMap(rows -> brand(session).map(brand -> {
                    List<AccountView> views =
                            rows.stream().map(row -> AccountView.of(row, text)).toList();
                    String message = session.embedOrigin == null ? null : completionMessage(session, rows);
                    MessageView page = new MessageView(
                            text.messages().done_title(),
                            new RawString(HostedPageText.escape(text.messages().done_message())),
                            null,
                            null,
                            views);
                    return responses
                            .page(
                                    200,
                                    session.embedOrigin,
                                    nonce -> HostedPages.message(
                                                    page,
                                                    new PageFrame(
                                                            text.lang(), nonce, brand, session.embedOrigin, message))
                                            .setLocale(text.locale()))
                            .build();
                }));
    }

    /**
     * {@code {"type":"herald.connect.completed","session_id":...,"status":"completed","accounts":[{"id","platform"}]}}:
     * ids only, which the customer reads through the API; names stay on the page.
     */
    private String completionMessage(ConnectSessionEntity session, List<AccountEntity> rows) {
        ObjectNode message = json.createObjectNode()
                .put("type", "herald.connect.completed")
                .put("session_id", session.id)
                .put("status", ConnectSession.COMPLETED);
        ArrayNode connected = message.putArray("accounts");
        rows.forEach(row -> connected.addObject().put("id", row.id).put("platform", row.platform));
        return message.toString();
    }

    /** A refusal of the connection itself (slot limit, monthly allowance, profile gone): the page explains it. */
    Uni<Response> connectRefused(
            ConnectSessionEntity session, String cookie, ApiException refused, String acceptLanguage) {
        Function<HostedPageText, String> message = text -> switch (refused.code()) {
            case ACCOUNT_LIMIT_REACHED -> text.messages().refused_account_limit();
            case USAGE_LIMIT_EXCEEDED -> text.messages().refused_usage_limit();
            case CONFLICT -> text.messages().refused_conflict(refused.getMessage());
            default -> text.messages().refused_other(refused.code().code());
        };
        return session(session, cookie, refused.code().httpStatus(), null, null, message, acceptLanguage)
                .map(page -> {
                    // A 429's Retry-After (the new-connection allowance's reset) reaches the browser too.
                    refused.headers().forEach(page::header);
                    return page.build();
                });
    }

    /**
     * The page of a step refused ({@link ConnectRefusal}), or of one that failed unexpectedly (500), in the
     * session's language when the refusal knows it, else the browser's.
     */
    Response refusal(Throwable failure, String acceptLanguage) {
        if (!(failure instanceof ConnectRefusal refusal)) {
            LOG.errorf(failure, "hosted connect page failed");
            HostedPageText text = new HostedPageText(HostedPageLocales.choose(null, acceptLanguage));
            return message(
                    500,
                    null,
                    text,
                    new MessageView(
                            text.messages().error_title(),
                            new RawString(HostedPageText.escape(text.messages().error_message())),
                            "internal_error",
                            null,
                            List.of()));
        }
        HostedPageText text = new HostedPageText(HostedPageLocales.choose(refusal.locale(), acceptLanguage));
        ConnectRefusal.Reason reason = refusal.reason();
        String back = refusal.sessionId() == null ? null : "/connect/sessions/" + refusal.sessionId();
        return message(
                reason.status(),
                refusal.embedOrigin(),
                text,
                new MessageView(
                        text.refusalTitle(reason),
                        new RawString(text.refusalMessageHtml(refusal)),
                        reason.code(),
                        back,
                        List.of()));
    }

    /** {@code embedOrigin}: the session's, when the refusal knows it (else the page is never framed). */
    private Response message(int status, String embedOrigin, HostedPageText text, MessageView page) {
        return responses
                .page(
                        status,
                        embedOrigin,
                        nonce -> HostedPages.message(
                                        page, new PageFrame(text.lang(), nonce, BrandView.HERALD, embedOrigin, null))
                                .setLocale(text.locale()))
                .build();
    }
}
