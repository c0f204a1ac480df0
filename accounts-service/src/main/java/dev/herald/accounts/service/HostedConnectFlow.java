package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.OAuthProviders;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
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
    private final AccountRepository accounts;
    private final OAuthProviders providers;
    private final ConnectBrowserBinding binding;
    private final ConnectConfig config;
    private final Clock clock;

    public HostedConnectFlow(
            ConnectSessionService sessions,
            AccountConnections connections,
            AccountRepository accounts,
            OAuthProviders providers,
            ConnectBrowserBinding binding,
            ConnectConfig config,
            Clock clock) {
        this.sessions = sessions;
        this.connections = connections;
        this.accounts = accounts;
        this.providers = providers;
        this.binding = binding;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Test mode: the end user "authorizes" a simulated identity of their choosing; a reconnect session's page
     * re-authorizes its account's identity, whatever name and username the form sends ({@code null} there).
     */
    public Uni<ConnectStep> authorizeSimulated(String sessionId, Platform platform, String name, String username) {
        return sessions.connectIfUsable(sessionId, session -> {
            requireOffered(session, platform);
            if (Mode.fromWire(session.mode).orElseThrow() != Mode.TEST) {
                throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
            }
            return boundAccount(session)
                    .flatMap(bound -> {
                        if (bound == null && (name == null || username == null)) {
                            throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
                        }
                        return connections.connect(new AccountConnection(
                                session.workspaceId,
                                Mode.TEST,
                                session.profileId,
                                platform,
                                bound != null
                                        ? bound.externalId
                                        : SIMULATED_ID_PREFIX + username.toLowerCase(Locale.ROOT),
                                bound != null ? bound.name : name,
                                bound != null ? bound.username : username,
                                null,
                                session.id));
                    })
                    .map(account -> List.of(account.id()));
        });
    }

    /** The account a reconnect session re-authorizes; null for an ordinary session. */
    public Uni<AccountEntity> boundAccount(ConnectSessionEntity session) {
        if (session.accountId == null) {
            return Uni.createFrom().nullItem();
        }
        return Panache.withSession(() -> accounts.findInTenant(
                        session.workspaceId, Mode.fromWire(session.mode).orElseThrow(), session.accountId))
                .onItem()
                .ifNull()
                .failWith(() -> new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
    }

    /**
     * The identities of a grant this session connects: all of them, or for a reconnect session only its account's
     * (the same provider id). A grant without it was given by someone signed in as another account: nothing is
     * connected, and the page names the account expected.
     */
    static List<ProviderIdentity> identitiesToConnect(
            ConnectSessionEntity session, AccountEntity bound, List<ProviderIdentity> identities) {
        if (bound == null) {
            return identities;
        }
        List<ProviderIdentity> same = identities.stream()
                .filter(identity -> bound.externalId.equals(identity.externalId()))
                .toList();
        if (same.isEmpty()) {
            Platform platform = Platform.fromWire(bound.platform).orElseThrow();
            // A LinkedIn member's username is its URN, which nobody signs in with: the name says who it is.
            String who = bound.username.startsWith("urn:")
                    ? null
                    : bound.username.startsWith("@") ? bound.username : "@" + bound.username;
            throw ConnectRefusal.otherAccount(session, new ConnectRefusal.ExpectedAccount(platform, bound.name, who));
        }
        return same;
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
                                    session -> boundAccount(session)
                                            .map(bound -> identitiesToConnect(session, bound, authorized.identities()))
                                            .onItem()
                                            .transformToMulti(identities ->
                                                    Multi.createFrom().iterable(identities))
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
