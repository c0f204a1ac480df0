package dev.herald.accounts.rest;

import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.ReconnectLinks;
import dev.herald.common.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * A reconnect link ({@code /connect/reconnect/<token>}, from an {@code account.*} event or {@code POST
 * /accounts/{id}/reconnect-link}): each opening makes a connect session bound to the link's account and sends the
 * browser to that session's own link, so the rest is the ordinary hosted flow ({@link HostedConnectResource}) with its
 * browser binding, CSRF tokens and OAuth state. A link past its 7 days is a 410 page, anything else not genuine a 404.
 */
@Cancellable(false)
@Path("/connect/reconnect")
@Produces(MediaType.TEXT_HTML)
public class HostedReconnectResource {
    private final ReconnectLinks links;
    private final ConnectSessionService sessions;
    private final HostedPageResponses responses;
    private final HostedConnectPages pages;
    private final Clock clock;

    public HostedReconnectResource(
            ReconnectLinks links,
            ConnectSessionService sessions,
            HostedPageResponses responses,
            HostedConnectPages pages,
            Clock clock) {
        this.links = links;
        this.sessions = sessions;
        this.responses = responses;
        this.pages = pages;
        this.clock = clock;
    }

    @GET
    @Path("/{token}")
    public Uni<Response> open(
            @PathParam("token") String token, @HeaderParam(HttpHeaders.ACCEPT_LANGUAGE) String acceptLanguage) {
        return Uni.createFrom()
                .item(() -> links.open(token, Timestamps.now(clock)))
                .flatMap(sessions::openReconnect)
                .map(sessionLink ->
                        responses.seeOther(URI.create(sessionLink), null).build())
                .onFailure()
                .recoverWithItem(failure -> pages.refusal(failure, acceptLanguage));
    }
}
