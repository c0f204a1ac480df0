package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * What the hosted pages do for an end user: simulate an authorization (test mode), or send the browser to
 * the platform and finish the authorization when it comes back (live mode). Every connection goes through
 * {@link AccountConnections#connect}, so slot and allowance checks are the same as everywhere else.
 */
@ApplicationScoped
public class HostedConnectFlow {
    private static final Logger LOG = Logger.getLogger(HostedConnectFlow.class);
    /** Simulated identities are keyed by username, so authorizing the same username again reconnects that account. */
    static final String SIMULATED_ID_PREFIX = "sim_";

    private final ConnectSessionService sessions;
    private final AccountConnections connections;
    private final OAuthProviders providers;
    private final ConnectBrowserBinding binding;
    private final ConnectConfig config;
    private final Clock clock;

    public HostedConnectFlow(
            ConnectSessionService sessions,
            AccountConnections connections,
            OAuthProviders providers,
            ConnectBrowserBinding binding,
            ConnectConfig config,
            Clock clock) {
        this.sessions = sessions;
        this.connections = connections;
        this.providers = providers;
        this.binding = binding;
        this.config = config;
        this.clock = clock;
    }

    /** Test mode: the end user "authorizes" a simulated identity of their choosing. */
    public Uni<ConnectStep> authorizeSimulated(String sessionId, Platform platform, String name, String username) {
        String externalId = SIMULATED_ID_PREFIX + username.toLowerCase(Locale.ROOT);
        return sessions.connectIfUsable(sessionId, session -> {
            requireOffered(session, platform);
            if (Mode.fromWire(session.mode).orElseThrow() != Mode.TEST) {
                throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
            }
            return connections
                    .connect(new AccountConnection(
                            session.workspaceId,
                            Mode.TEST,
                            session.profileId,
                            platform,
                            externalId,
                            name,
                            username,
                            null,
                            session.id))
                    .map(account -> List.of(account.id()));
        });
    }

    /** Live mode: where to send the browser to authorize {@code platform} (state bound to session and cookie; PKCE where supported). */
    public URI authorizationUrl(ConnectSessionEntity session, Platform platform, String cookie) {
        sessions.requireUsable(session);
        requireOffered(session, platform);
        OAuthProvider provider = provider(platform)
                .orElseThrow(() -> new ConnectRefusal(ConnectRefusal.Reason.PLATFORM_UNAVAILABLE, session.id));
        String state = binding.authorizationState(session.id, platform.wireName(), cookie, Timestamps.now(clock));
        String challenge =
                provider.supportsPkce() ? ConnectBrowserBinding.pkceChallenge(binding.pkceVerifier(state)) : null;
        return provider.authorizationUrl(new AuthorizationRequest(state, challenge, callbackUri(platform)));
    }

    /**
     * The platform sent the browser back: the state must be ours, for this platform and this browser, and the
     * session must still be usable (checked again after the code exchange, under the session's lock).
     * Answers the session id, for the page to show.
     */
    public Uni<ConnectStep> finishAuthorization(
            Platform platform, String code, String state, String cookie, String error) {
        Optional<String> sessionId = binding.verifyState(state, platform.wireName(), cookie, Timestamps.now(clock));
        if (sessionId.isEmpty() || !binding.cookieBindsSession(cookie, sessionId.get())) {
            return Uni.createFrom().failure(new ConnectRefusal(ConnectRefusal.Reason.OTHER_BROWSER));
        }
        String id = sessionId.get();
        return sessions.findById(id)
                .flatMap(session -> {
                    sessions.requireUsable(session);
                    if (error != null || code == null || code.isBlank()) {
                        throw new ConnectRefusal(ConnectRefusal.Reason.AUTHORIZATION_DENIED, id);
                    }
                    OAuthProvider provider = provider(platform)
                            .orElseThrow(() -> new ConnectRefusal(ConnectRefusal.Reason.PLATFORM_UNAVAILABLE, id));
                    String verifier = provider.supportsPkce() ? binding.pkceVerifier(state) : null;
                    return provider.exchangeCode(code, verifier, callbackUri(platform))
                            .flatMap(grant ->
                                    provider.identities(grant).map(identities -> new Authorized(grant, identities)))
                            .onFailure(ProviderException.class)
                            .transform(failure -> {
                                LOG.warnf(
                                        "connect session %s: %s authorization failed: %s",
                                        id, platform.wireName(), ((ProviderException) failure).code());
                                return new ConnectRefusal(ConnectRefusal.Reason.PROVIDER_FAILED, id);
                            });
                })
                .flatMap(authorized -> {
                    // One identity after another: each connection takes a slot, and the plan's limit decides in order.
                    // A
                    // refusal stops the rest, but the accounts connected before it are connected (and charged): the
                    // session
                    // lists them, then the page explains the refusal.
                    List<String> connected = new ArrayList<>();
                    AtomicReference<ApiException> refused = new AtomicReference<>();
                    return sessions.connectIfUsable(
                                    id,
                                    session -> Multi.createFrom()
                                            .iterable(authorized.identities())
                                            .onItem()
                                            .transformToUniAndConcatenate(
                                                    identity -> connections.connect(new AccountConnection(
                                                            session.workspaceId,
                                                            Mode.fromWire(session.mode)
                                                                    .orElseThrow(),
                                                            session.profileId,
                                                            platform,
                                                            identity.externalId(),
                                                            identity.name(),
                                                            identity.username(),
                                                            authorized.grant().forIdentity(identity),
                                                            session.id)))
                                            .onItem()
                                            .invoke(account -> connected.add(account.id()))
                                            .collect()
                                            .asList()
                                            .map(accounts -> List.copyOf(connected))
                                            .onFailure(ApiException.class)
                                            .recoverWithItem(failure -> {
                                                refused.set((ApiException) failure);
                                                return List.copyOf(connected);
                                            }))
                            .invoke(step -> {
                                if (refused.get() != null) {
                                    throw refused.get();
                                }
                            });
                });
    }

    public URI callbackUri(Platform platform) {
        return URI.create(
                config.publicUrl().toString().replaceAll("/+$", "") + "/connect/callback/" + platform.wireName());
    }

    /**
     * The session's platforms the page offers: all of them in test mode; in live mode only those whose OAuth client
     * the operator configured, since choosing another could only fail.
     */
    public List<Platform> offeredPlatforms(ConnectSessionEntity session) {
        List<Platform> platforms = ConnectSessionService.platforms(session);
        if (Mode.fromWire(session.mode).orElseThrow() == Mode.TEST) {
            return platforms;
        }
        return platforms.stream()
                .filter(platform -> provider(platform).isPresent())
                .toList();
    }

    /** The platform's provider, if the operator configured its client: an unconfigured one could only refuse. */
    private Optional<OAuthProvider> provider(Platform platform) {
        return providers.forPlatform(platform).filter(OAuthProvider::configured);
    }

    private static void requireOffered(ConnectSessionEntity session, Platform platform) {
        if (!ConnectSessionService.platforms(session).contains(platform)) {
            throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
        }
    }

    private record Authorized(ProviderGrant grant, List<ProviderIdentity> identities) {}
}
