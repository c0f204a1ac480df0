package dev.herald.accounts.rest;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.service.AnalyticsConsents;
import dev.herald.accounts.service.ConnectBrowserBinding;
import dev.herald.accounts.service.ConnectRefusal;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.ConnectStep;
import dev.herald.accounts.service.HostedConnectFlow;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.StorableText;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * The hosted connect pages under {@code /connect}, reached through the gateway without an API key: the link
 * itself ({@code /connect/<token>}) is the credential. Opening it binds the browser with a cookie; every later
 * step must come from that browser (cookie, and a CSRF token in each form) and is checked against the
 * session's status again. Pages work without JavaScript.
 *
 * <p>Just over 300 lines: the six steps of the page share the binding and CSRF checks at the end, which are the
 * page's security and read best beside the steps they guard; the pages themselves are {@link HostedConnectPages}.
 */
@Cancellable(false)
@Path("/connect")
@Produces(MediaType.TEXT_HTML)
public class HostedConnectResource {
    static final int MAX_NAME_LENGTH = 100;

    private final ConnectSessionService sessions;
    private final HostedConnectFlow flow;
    private final ConnectBrowserBinding binding;
    private final HostedPageResponses responses;
    private final HostedConnectPages pages;
    private final AnalyticsConsents consents;
    private final AccountsConfig accountsConfig;
    private final Clock clock;

    public HostedConnectResource(
            ConnectSessionService sessions,
            HostedConnectFlow flow,
            ConnectBrowserBinding binding,
            HostedPageResponses responses,
            HostedConnectPages pages,
            AnalyticsConsents consents,
            AccountsConfig accountsConfig,
            Clock clock) {
        this.sessions = sessions;
        this.flow = flow;
        this.binding = binding;
        this.responses = responses;
        this.pages = pages;
        this.consents = consents;
        this.accountsConfig = accountsConfig;
        this.clock = clock;
    }

    /** The private link: binds this browser to the session (keeping a binding it already has) and shows the page. */
    @GET
    @Path("/{token}")
    public Uni<Response> open(
            @PathParam("token") String token,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
        return sessions.findByToken(token)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    String bound =
                            binding.cookieBindsSession(cookie, session.id) ? cookie : binding.newCookie(session.id);
                    return pages.session(session, bound, 200, null, null, null, acceptLanguage)
                            .map(page -> page.cookie(
                                            responses.bindingCookie(bound, session.expiresAt, Timestamps.now(clock)))
                                    .build());
                })
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
    }

    @GET
    @Path("/sessions/{id}")
    public Uni<Response> show(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @QueryParam("connected") String connected,
            @QueryParam("consented") String consented,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
        return boundSession(id, cookie)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    return pages.session(session, cookie, 200, connected, consented, null, acceptLanguage)
                            .map(Response.ResponseBuilder::build);
                })
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
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
            @FormParam("username") String username,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
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
                    // A reconnect session re-authorizes its account's identity: its page asks for no name.
                    if (session.accountId == null && (displayName == null || handle == null)) {
                        return pages.session(
                                        session,
                                        cookie,
                                        422,
                                        null,
                                        null,
                                        text -> text.messages().name_missing(String.valueOf(MAX_NAME_LENGTH)),
                                        acceptLanguage)
                                .map(Response.ResponseBuilder::build);
                    }
                    return flow.authorizeSimulated(id, platform, displayName, handle)
                            .map(step -> responses
                                    .seeOther(connectedPage(step), step.session().embedOrigin)
                                    .build())
                            .onFailure(ApiException.class)
                            .recoverWithUni(refused ->
                                    pages.connectRefused(session, cookie, (ApiException) refused, acceptLanguage));
                })
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
    }

    /** The platform sends the browser back here after the end user decided. */
    @GET
    @Path("/callback/{platform}")
    public Uni<Response> callback(
            @PathParam("platform") String platformName,
            @QueryParam("code") String code,
            @QueryParam("state") String state,
            @QueryParam("error") String error,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
        Optional<Platform> platform = Platform.fromWire(platformName);
        if (platform.isEmpty()) {
            return Uni.createFrom()
                    .item(pages.refusal(new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM), acceptLanguage));
        }
        return flow.finishAuthorization(platform.get(), code, state, cookie, error)
                .map(step -> responses
                        .seeOther(connectedPage(step), step.session().embedOrigin)
                        .build())
                .onFailure(ApiException.class)
                .recoverWithUni(refused -> sessionIdFromState(state, platformName, cookie)
                        .map(sessionId -> sessions.findById(sessionId)
                                .flatMap(session ->
                                        pages.connectRefused(session, cookie, (ApiException) refused, acceptLanguage)))
                        .orElseGet(() -> Uni.createFrom().item(pages.refusal(refused, acceptLanguage))))
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
    }

    /** The end user is done: the session completes and the browser returns to the customer (or sees a closing page). */
    @POST
    @Path("/sessions/{id}/complete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> complete(
            @PathParam("id") String id,
            @CookieParam(ConnectBrowserBinding.COOKIE) String cookie,
            @FormParam("csrf") String csrf,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
        return postedByBoundBrowser(id, cookie, csrf)
                .flatMap(session -> sessions.complete(session.id))
                .flatMap(session -> {
                    if (session.redirectUrl != null) {
                        URI back = UriBuilder.fromUri(session.redirectUrl)
                                .queryParam("connect_session_id", session.id)
                                .queryParam("status", ConnectSession.COMPLETED)
                                .build();
                        return Uni.createFrom()
                                .item(responses
                                        .seeOther(back, session.embedOrigin)
                                        .build());
                    }
                    return pages.allSet(session, acceptLanguage);
                })
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
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
            @FormParam("accept") String accept,
            @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
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
                        return pages.session(
                                        session,
                                        cookie,
                                        422,
                                        null,
                                        null,
                                        text -> text.messages().consent_missing(),
                                        acceptLanguage)
                                .map(Response.ResponseBuilder::build);
                    }
                    return consents.accept(
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
                            .recoverWithUni(refused ->
                                    pages.connectRefused(session, cookie, (ApiException) refused, acceptLanguage));
                })
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
    }

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

    private static String trimmed(String value) {
        if (value == null || !StorableText.isStorable(value)) {
            return null;
        }
        String text = value.strip();
        int length = text.codePointCount(0, text.length());
        return length < 1 || length > MAX_NAME_LENGTH ? null : text;
    }
}
