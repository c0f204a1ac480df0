package dev.herald.accounts.service;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.accounts.repository.AccountRepository;
import dev.herald.accounts.repository.ConnectSessionRepository;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.api.HourlyCreationLimit;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.ProfilesClient;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Connect sessions: created through the API with a private link, used by the hosted pages, revoked through
 * the API or by the deletion of their profile. A session authorizes while it is {@code open} and before
 * {@code expires_at}; {@code completed} (the end user finished on the page), {@code revoked} and
 * {@code expired} are final. Accounts connected through it stay connected whatever happens to it.
 */
@ApplicationScoped
public class ConnectSessionService {
    /** How long a session's link works when its creator does not say (and a reconnect session's, always). */
    public static final Duration DEFAULT_TTL = Duration.ofHours(1);

    private static final Logger LOG = Logger.getLogger(ConnectSessionService.class);

    private final ConnectSessionRepository sessions;
    private final AccountRepository accounts;
    private final ProfilesClient profiles;
    private final ConnectBrowserBinding binding;
    private final ConnectConfig config;
    private final Clock clock;

    public ConnectSessionService(
            ConnectSessionRepository sessions,
            AccountRepository accounts,
            ProfilesClient profiles,
            ConnectBrowserBinding binding,
            ConnectConfig config,
            Clock clock) {
        this.sessions = sessions;
        this.accounts = accounts;
        this.profiles = profiles;
        this.binding = binding;
        this.config = config;
        this.clock = clock;
    }

    /** Creates a session; the answer is the only one that carries its private URL. */
    public Uni<ConnectSession> create(String workspaceId, Mode mode, ConnectSessionRequest request) {
        return profiles.exists(workspaceId, mode, request.profileId()).flatMap(exists -> {
            if (!exists) {
                // The profile is a body field, so a missing one (or another tenant's) is a field error, not a 404.
                throw ApiException.validationFailed(List.of(new FieldError(
                        "profile_id", "invalid_value", "No profile with this id exists in this workspace and mode.")));
            }
            String token = binding.newLinkToken();
            ConnectSessionEntity session = newSession(workspaceId, mode, request.profileId(), token);
            session.platforms =
                    request.platforms().stream().map(Platform::wireName).collect(Collectors.joining(","));
            session.redirectUrl = request.redirectUrl();
            session.embedOrigin = request.embedOrigin();
            session.displayName = request.displayName();
            session.locale = request.locale();
            session.expiresAt = session.createdAt.plus(request.expiresIn());
            HourlyCreationLimit limit = new HourlyCreationLimit("connect sessions", config.sessionsPerHour());
            return Panache.withTransaction(() -> sessions.createdThroughApiSince(
                                    workspaceId, mode, HourlyCreationLimit.windowStart(session.createdAt))
                            .flatMap(created -> {
                                var refusal = limit.refusal(created.count(), created.oldest(), session.createdAt);
                                if (refusal.isPresent()) {
                                    return Uni.createFrom().failure(refusal.get());
                                }
                                return sessions.persist(session);
                            }))
                    .map(saved -> toWire(saved, Timestamps.now(clock), linkUrl(token)));
        });
    }

    /**
     * Opens a reconnect link ({@link ReconnectLinks}): a new session bound to the link's account, offering only its
     * platform, under the account's profile, for {@link #DEFAULT_TTL}. Answers the session's own link, where the
     * browser goes next, so binding, CSRF and OAuth state are those of every session. An account the link's tenant
     * does not have is an unknown link.
     */
    public Uni<String> openReconnect(ReconnectLinks.Link link) {
        return Panache.withTransaction(() -> accounts.findInTenant(link.workspaceId(), link.mode(), link.accountId())
                .flatMap(account -> {
                    if (account == null) {
                        return Uni.createFrom().failure(new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
                    }
                    String token = binding.newLinkToken();
                    ConnectSessionEntity session =
                            newSession(link.workspaceId(), link.mode(), account.profileId, token);
                    session.accountId = account.id;
                    session.platforms = account.platform;
                    session.expiresAt = session.createdAt.plus(DEFAULT_TTL);
                    return sessions.persist(session).replaceWith(linkUrl(token));
                }));
    }

    private ConnectSessionEntity newSession(String workspaceId, Mode mode, String profileId, String token) {
        ConnectSessionEntity session = new ConnectSessionEntity();
        session.id = ResourceIds.newId(IdPrefix.CONNECT_SESSION);
        session.workspaceId = workspaceId;
        session.mode = mode.wireName();
        session.profileId = profileId;
        session.tokenHash = ConnectBrowserBinding.hashLinkToken(token);
        session.status = ConnectSession.OPEN;
        session.accountIds = "";
        session.createdAt = Timestamps.now(clock);
        session.updatedAt = session.createdAt;
        return session;
    }

    @WithSession
    public Uni<ConnectSession> get(String workspaceId, Mode mode, String id) {
        return findOrFail(workspaceId, mode, id).map(session -> toWire(session, Timestamps.now(clock), null));
    }

    /**
     * Revokes an open session; a session that is already final is answered as it is (revoking twice, or
     * revoking a finished link, changes nothing).
     */
    @WithTransaction
    public Uni<ConnectSession> revoke(String workspaceId, Mode mode, String id) {
        if (!IdPrefix.CONNECT_SESSION.matches(id)) {
            return Uni.createFrom().failure(ApiException.notFound("connect session"));
        }
        return sessions.findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("connect session"))
                .flatMap(session -> {
                    Instant now = Timestamps.now(clock);
                    if (!status(session, now).equals(ConnectSession.OPEN)) {
                        return Uni.createFrom().item(toWire(session, now, null));
                    }
                    session.status = ConnectSession.REVOKED;
                    session.revokedAt = now;
                    session.updatedAt = now;
                    return sessions.flush().map(flushed -> toWire(session, now, null));
                });
    }

    /** Applies a profile event once: a deleted profile's open sessions are revoked. */
    @WithTransaction
    public Uni<Void> apply(ProfileEvent event) {
        return ProcessedEvents.markProcessed(event.eventId()).flatMap(fresh -> {
            if (!fresh || !ProfileEvent.DELETED.equals(event.type()) || event.profile() == null) {
                return Uni.createFrom().voidItem();
            }
            return sessions.revokeOpenOfProfile(
                            event.workspaceId(), event.mode(), event.profile().id(), Timestamps.now(clock))
                    .invoke(revoked -> {
                        if (revoked > 0) {
                            LOG.infof(
                                    "revoked %d connect session(s) of deleted profile %s",
                                    revoked, event.profile().id());
                        }
                    })
                    .replaceWithVoid();
        });
    }

    // ---- for the hosted pages ---------------------------------------------------------------------------------

    /** The session a link token opens, whatever its status (pages explain a dead link rather than hide it). */
    @WithSession
    public Uni<ConnectSessionEntity> findByToken(String token) {
        if (token == null || token.length() > 64) {
            return Uni.createFrom().failure(new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
        }
        return sessions.findByTokenHash(ConnectBrowserBinding.hashLinkToken(token))
                .onItem()
                .ifNull()
                .failWith(() -> new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
    }

    public Uni<ConnectSessionEntity> findById(String id) {
        if (!IdPrefix.CONNECT_SESSION.matches(id)) {
            return Uni.createFrom().failure(new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
        }
        return Panache.withSession(() -> sessions.findById(id))
                .onItem()
                .ifNull()
                .failWith(() -> new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK));
    }

    /**
     * Runs {@code work} (connections, which keep their own transactions) if the session is usable, then appends
     * the accounts it connected under the session's lock. A revocation racing with a connection in flight lets
     * that one connection finish (it is then listed in {@code account_ids}); nothing starts after it.
     */
    public Uni<ConnectStep> connectIfUsable(String sessionId, Function<ConnectSessionEntity, Uni<List<String>>> work) {
        return findById(sessionId)
                .invoke(this::requireUsable)
                .flatMap(session -> work.apply(session))
                .flatMap(connected -> Panache.withTransaction(() -> sessions.findByIdForUpdate(sessionId)
                        .flatMap(session -> {
                            List<String> ids = accountIds(session);
                            boolean changed = false;
                            for (String accountId : connected) {
                                if (!ids.contains(accountId)) {
                                    ids.add(accountId);
                                    changed = true;
                                }
                            }
                            if (!changed) {
                                return Uni.createFrom().item(new ConnectStep(session, connected));
                            }
                            session.accountIds = String.join(",", ids);
                            session.updatedAt = Timestamps.now(clock);
                            return sessions.flush().replaceWith(new ConnectStep(session, connected));
                        })));
    }

    /** The end user finished: the session becomes {@code completed} and its link stops working. */
    @WithTransaction
    public Uni<ConnectSessionEntity> complete(String sessionId) {
        return sessions.findByIdForUpdate(sessionId)
                .onItem()
                .ifNull()
                .failWith(() -> new ConnectRefusal(ConnectRefusal.Reason.UNKNOWN_LINK))
                .flatMap(session -> {
                    requireUsable(session);
                    if (accountIds(session).isEmpty()) {
                        throw new ConnectRefusal(ConnectRefusal.Reason.INVALID_FORM, session.id);
                    }
                    Instant now = Timestamps.now(clock);
                    session.status = ConnectSession.COMPLETED;
                    session.completedAt = now;
                    session.updatedAt = now;
                    return sessions.flush().replaceWith(session);
                });
    }

    /** Fails with the page-level refusal unless the session can still authorize. */
    public void requireUsable(ConnectSessionEntity session) {
        switch (status(session, Timestamps.now(clock))) {
            case ConnectSession.OPEN -> {}
            case ConnectSession.EXPIRED -> throw ConnectRefusal.ofDeadSession(ConnectRefusal.Reason.EXPIRED, session);
            case ConnectSession.REVOKED -> throw ConnectRefusal.ofDeadSession(ConnectRefusal.Reason.REVOKED, session);
            default -> throw ConnectRefusal.ofDeadSession(ConnectRefusal.Reason.COMPLETED, session);
        }
    }

    /** The link URL of a token: {@code <public url>/connect/<token>}. */
    public String linkUrl(String token) {
        return config.publicUrl().toString().replaceAll("/+$", "") + "/connect/" + token;
    }

    private Uni<ConnectSessionEntity> findOrFail(String workspaceId, Mode mode, String id) {
        if (!IdPrefix.CONNECT_SESSION.matches(id)) {
            return Uni.createFrom().failure(ApiException.notFound("connect session"));
        }
        return sessions.findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("connect session"));
    }

    /** The stored status, or {@code expired} once an open session's time is up. */
    public static String status(ConnectSessionEntity session, Instant now) {
        if (ConnectSession.OPEN.equals(session.status) && !now.isBefore(session.expiresAt)) {
            return ConnectSession.EXPIRED;
        }
        return session.status;
    }

    public static List<Platform> platforms(ConnectSessionEntity session) {
        return Arrays.stream(session.platforms.split(","))
                .map(name -> Platform.fromWire(name).orElseThrow())
                .toList();
    }

    public static List<String> accountIds(ConnectSessionEntity session) {
        return session.accountIds.isEmpty()
                ? new ArrayList<>()
                : new ArrayList<>(Arrays.asList(session.accountIds.split(",")));
    }

    public static ConnectSession toWire(ConnectSessionEntity session, Instant now, String url) {
        return new ConnectSession(
                session.id,
                session.profileId,
                Mode.fromWire(session.mode).orElseThrow(),
                status(session, now),
                platforms(session),
                session.redirectUrl,
                session.embedOrigin,
                session.displayName,
                List.copyOf(accountIds(session)),
                session.expiresAt,
                session.completedAt,
                session.revokedAt,
                session.createdAt,
                session.updatedAt,
                session.locale,
                url);
    }
}
