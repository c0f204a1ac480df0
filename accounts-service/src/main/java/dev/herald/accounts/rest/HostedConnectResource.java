package dev.herald.accounts.rest;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.rest.HostedPageViews.AccountView;
import dev.herald.accounts.rest.HostedPageViews.MessageView;
import dev.herald.accounts.rest.HostedPageViews.PlatformView;
import dev.herald.accounts.rest.HostedPageViews.SessionView;
import dev.herald.accounts.service.AccountService;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.accounts.service.ConnectRefusal;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.ConnectStep;
import dev.herald.accounts.service.HostedConnectFlow;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.StorableText;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import java.net.URI;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * The hosted connect pages under {@code /connect}, reached through the gateway without an API key: the link
 * itself ({@code /connect/<token>}) is the credential. Opening it binds the browser with a cookie; every later
 * step must come from that browser (cookie, and a CSRF token in each form) and is checked against the
 * session's status again. Pages work without JavaScript.
 */
@Cancellable(false)
@Path("/connect")
@Produces(MediaType.TEXT_HTML)
public class HostedConnectResource {
    private static final Logger LOG = Logger.getLogger(HostedConnectResource.class);
    static final int MAX_NAME_LENGTH = 100;

    private final ConnectSessionService sessions;
    private final HostedConnectFlow flow;
    private final ConnectBrowserBinding binding;
    private final HostedPageResponses responses;
    private final AccountRepository accounts;
    private final AccountService accountService;
    private final AccountsConfig accountsConfig;
    private final Clock clock;

    public HostedConnectResource(
            ConnectSessionService sessions,
            HostedConnectFlow flow,
            ConnectBrowserBinding binding,
            HostedPageResponses responses,
            AccountRepository accounts,
            AccountService accountService,
            AccountsConfig accountsConfig,
            Clock clock) {
        this.sessions = sessions;
        this.flow = flow;
        this.binding = binding;
        this.responses = responses;
        this.accounts = accounts;
        this.accountService = accountService;
        this.accountsConfig = accountsConfig;
        this.clock = clock;
    }

    /** The private link: binds this browser to the session (keeping a binding it already has) and shows the page. */
    @GET
    @Path("/{token}")
    public Uni<Response> open(
            @PathParam("token") String token, @CookieParam(ConnectBrowserBinding.COOKIE) String cookie) {
        return sessions.findByToken(token)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    String bound =
                            binding.cookieBindsSession(cookie, session.id) ? cookie : binding.newCookie(session.id);
                    return sessionPage(session, bound, 200, null, null, null)
                            .map(page -> page.cookie(
                                            responses.bindingCookie(bound, session.expiresAt, Timestamps.now(clock)))
                                    .build());
                })
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    @GET
    @Path("/sessions/{id}")
    public Uni<Response> show(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @QueryParam("connected") String connected,
            @QueryParam("consented") String consented) {
        return boundSession(id, cookie)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    return sessionPage(session, cookie, 200, connected, consented, null)
                            .map(Response.ResponseBuilder::build);
                })
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    /**
     * One platform chosen. Test mode connects the simulated identity at once; live mode sends the browser to
     * the platform's authorization page.
     */
    @POST
    @Path("/sessions/{id}/authorize")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> authorize(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @FormParam("csrf") String csrf,
            @FormParam("platform") String platformName,
            @FormParam("name") String name,
            @FormParam("username") String username) {
        return postedByBoundBrowser(id, cookie, csrf)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    Platform platform = Platform.fromWire(platformName)
                            .orElseThrow(() -> new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, id));
                    if (Mode.fromWire(session.mode).orElseThrow() == Mode.LIVE) {
                        return Uni.createFrom()
                                .item(responses
                                        .seeOther(flow.authorizationUrl(session, platform, cookie), session.embedOrigin)
                                        .build());
                    }
                    String displayName = trimmed(name);
                    String handle = trimmed(username);
                    if (displayName == null || handle == null) {
                        return sessionPage(
                                        session,
                                        cookie,
                                        422,
                                        null,
                                        null,
                                        "Enter a display name and a username of 1 to " + MAX_NAME_LENGTH
                                                + " characters.")
                                .map(Response.ResponseBuilder::build);
                    }
                    return flow.authorizeSimulated(id, platform, displayName, handle)
                            .map(step -> responses
                                    .seeOther(connectedPage(step), step.session().embedOrigin)
                                    .build())
                            .onFailure(ApiException.class)
                            .recoverWithUni(refused -> connectRefused(session, cookie, (ApiException) refused));
                })
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    /** The platform sends the browser back here after the end user decided. */
    @GET
    @Path("/callback/{platform}")
    public Uni<Response> callback(
            @PathParam("platform") String platformName,
            @QueryParam("code") String code,
            @QueryParam("state") String state,
            @QueryParam("error") String error,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie) {
        Optional<Platform> platform = Platform.fromWire(platformName);
        if (platform.isEmpty()) {
            return Uni.createFrom().item(refusalPage(new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM)));
        }
        return flow.finishAuthorization(platform.get(), code, state, cookie, error)
                .map(step -> responses
                        .seeOther(connectedPage(step), step.session().embedOrigin)
                        .build())
                .onFailure(ApiException.class)
                .recoverWithUni(refused -> sessionIdFromState(state, platformName, cookie)
                        .map(sessionId -> sessions.findById(sessionId)
                                .flatMap(session -> connectRefused(session, cookie, (ApiException) refused)))
                        .orElseGet(() -> Uni.createFrom().item(refusalPage(refused))))
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    /** The end user is done: the session completes and the browser returns to the customer (or sees a closing page). */
    @POST
    @Path("/sessions/{id}/complete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> complete(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @FormParam("csrf") String csrf) {
        return postedByBoundBrowser(id, cookie, csrf)
                .flatMap(session -> sessions.complete(session.id))
                .map(session -> {
                    if (session.redirectUrl != null) {
                        URI back = UriBuilder.fromUri(session.redirectUrl)
                                .queryParam("connect_session_id", session.id)
                                .queryParam("status", ConnectSession.COMPLETED)
                                .build();
                        return responses.seeOther(back, session.embedOrigin).build();
                    }
                    return responses
                            .page(
                                    200,
                                    session.embedOrigin,
                                    (nonce, origin) -> HostedPages.message(
                                            new MessageView(
                                                    "You're all set",
                                                    "Your accounts are connected. You can close this page.",
                                                    null,
                                                    null),
                                            nonce))
                            .build();
                })
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    /**
     * The YouTube legal step: the channel owner expressly accepts the current privacy policy for the
     * authorization the page showed. Recorded through the accounts' own consent rule (server timestamp,
     * bound to the authorization revision).
     */
    @POST
    @Path("/sessions/{id}/analytics-consent")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> analyticsConsent(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @FormParam("csrf") String csrf,
            @FormParam("account_id") String accountId,
            @FormParam("revision") String revision,
            @FormParam("accept") String accept) {
        return postedByBoundBrowser(id, cookie, csrf)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    if (accountId == null
                            || !ConnectSessionService.accountIds(session).contains(accountId)
                            || revision == null
                            || !revision.matches("\\d{1,18}")) {
                        throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, id);
                    }
                    if (!"yes".equals(accept)) {
                        return sessionPage(
                                        session,
                                        cookie,
                                        422,
                                        null,
                                        null,
                                        "Tick the box to accept the privacy policy, or skip this step.")
                                .map(Response.ResponseBuilder::build);
                    }
                    return accountService
                            .acceptAnalyticsConsent(
                                    session.workspaceId,
                                    Mode.fromWire(session.mode).orElseThrow(),
                                    accountId,
                                    accountsConfig.youtubePolicyVersion(),
                                    Long.parseLong(revision))
                            .map(account -> responses
                                    .seeOther(
                                            UriBuilder.fromPath("/connect/sessions/{id}")
                                                    .queryParam("consented", accountId)
                                                    .build(id),
                                            session.embedOrigin)
                                    .build())
                            .onFailure(ApiException.class)
                            .recoverWithUni(refused -> connectRefused(session, cookie, (ApiException) refused));
                })
                .onFailure()
                .recoverWithItem(this::refusalPage);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /**
     * The session, if this browser opened its link. A dead session is reported as such first: its cookie may
     * be gone with it, and "this link has expired" is the true answer either way.
     */
    private Uni<ConnectSessionEntity> boundSession(String id, String cookie) {
        return sessions.findById(id).invoke(session -> {
            sessions.requireUsable(session);
            if (!binding.cookieBindsSession(cookie, session.id)) {
                throw new ConnectRefusal(ConnectRefusal.Reason.OTHER_BROWSER);
            }
        });
    }

    private Uni<ConnectSessionEntity> postedByBoundBrowser(String id, String cookie, String csrf) {
        return boundSession(id, cookie).invoke(session -> {
            if (!binding.csrfMatches(cookie, csrf)) {
                throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
            }
        });
    }

    private Uni<Response.ResponseBuilder> sessionPage(
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
        return connected.map(rows -> {
            Map<String, Integer> order = ids.stream().collect(Collectors.toMap(Function.identity(), ids::indexOf));
            List<AccountEntity> sorted = rows.stream()
                    .sorted(Comparator.comparing(row -> order.get(row.id)))
                    .toList();
            List<AccountView> views =
                    sorted.stream().map(HostedConnectResource::view).toList();
            List<AccountView> consentNeeded = sorted.stream()
                    .filter(row -> Platform.YOUTUBE.wireName().equals(row.platform)
                            && Account.CONNECTED.equals(row.status)
                            && row.consentAcceptedAt == null)
                    .map(HostedConnectResource::view)
                    .toList();
            AccountView justConnected = sorted.stream()
                    .filter(row -> row.id.equals(connectedAccountId))
                    .findFirst()
                    .map(HostedConnectResource::view)
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
                    binding.csrfToken(cookie),
                    flow.offeredPlatforms(session).stream()
                            .map(PlatformView::of)
                            .toList(),
                    views,
                    consentNeeded,
                    justConnected,
                    notice,
                    error,
                    accountsConfig.youtubePolicyVersion());
            return responses.page(status, session.embedOrigin, (nonce, origin) -> HostedPages.session(page, nonce));
        });
    }

    /** A refusal of the connection itself (slot limit, monthly allowance, profile gone): the page explains it. */
    private Uni<Response> connectRefused(ConnectSessionEntity session, String cookie, ApiException refused) {
        String message = switch (refused.code()) {
            case ACCOUNT_LIMIT_REACHED -> "No more accounts can be connected: the account limit is reached.";
            case USAGE_LIMIT_EXCEEDED -> "No more new accounts can be connected this month.";
            case CONFLICT -> "This account cannot be changed right now: " + refused.getMessage();
            default -> "This step could not be completed (" + refused.code().code() + ").";
        };
        return sessionPage(session, cookie, refused.code().httpStatus(), null, null, message)
                .map(page -> {
                    // A 429's Retry-After (the new-connection allowance's reset) reaches the browser too.
                    refused.headers().forEach(page::header);
                    return page.build();
                });
    }

    private Optional<String> sessionIdFromState(String state, String platform, String cookie) {
        return binding.verifyState(state, platform, cookie, Timestamps.now(clock));
    }

    private static URI connectedPage(ConnectStep step) {
        UriBuilder page = UriBuilder.fromPath("/connect/sessions/{id}");
        if (!step.accountIds().isEmpty()) {
            page.queryParam("connected", step.accountIds().get(step.accountIds().size() - 1));
        }
        return page.build(step.session().id);
    }

    private Response refusalPage(Throwable failure) {
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
                                new MessageView(reason.title(), reason.message(), reason.code(), back), nonce))
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

    private static String trimmed(String value) {
        if (value == null || !StorableText.isStorable(value)) {
            return null;
        }
        String text = value.strip();
        int length = text.codePointCount(0, text.length());
        return length < 1 || length > MAX_NAME_LENGTH ? null : text;
    }
}
