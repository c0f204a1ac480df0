package dev.herald.usage.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.UniqueRow;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.model.SubscriptionEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hibernate.LockMode;

/** Reservations, always within one workspace and mode: another tenant's reservation does not exist here. */
@ApplicationScoped
public class ReservationRepository implements PanacheRepositoryBase<ReservationEntity, ReservationEntity.Key> {
    /** A tenant's reservation with its subscription (left-joined: null while the tenant has no plan row). */
    private static final String RESERVATION_AND_SUBSCRIPTION = """
             from ReservationEntity r
            left join SubscriptionEntity s on s.workspaceId = r.workspaceId and s.mode = r.mode
            where r.workspaceId = :workspaceId and r.mode = :mode and r.id = :id""";

    private static final String WITH_SUBSCRIPTION = "select r, s" + RESERVATION_AND_SUBSCRIPTION;
    /** Candidates for a batch of keys: the primary key's index takes the three lists; exact keys are picked after. */
    private static final String ALL_WITH_SUBSCRIPTIONS = """
            select r, s from ReservationEntity r
            left join SubscriptionEntity s on s.workspaceId = r.workspaceId and s.mode = r.mode
            where r.workspaceId in :workspaceIds and r.mode in :modes and r.id in :ids""";

    private static final String FOR_DELIVERY = """
            select r, s, (select count(c) from ConnectedAccountEntity c
                          where c.workspaceId = r.workspaceId and c.mode = r.mode and c.accountId = :accountId)""" + RESERVATION_AND_SUBSCRIPTION;

    public Uni<ReservationEntity> findInTenant(String workspaceId, Mode mode, String id) {
        return find("workspaceId = ?1 and mode = ?2 and id = ?3", workspaceId, mode.wireName(), id)
                .list()
                .map(UniqueRow::of);
    }

    /** The same, locked for the rest of the transaction, so one transition at a time wins. */
    public Uni<ReservationEntity> findInTenantForUpdate(String workspaceId, Mode mode, String id) {
        return find("workspaceId = ?1 and mode = ?2 and id = ?3", workspaceId, mode.wireName(), id)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .map(UniqueRow::of);
    }

    /** A reservation and its tenant's subscription row, which is null while the tenant has never been given a plan. */
    public record WithSubscription(ReservationEntity reservation, SubscriptionEntity subscription) {}

    /**
     * The reservation with its tenant's subscription, in one query instead of two (a delivery checks its reservation
     * before every publication); null when there is no such reservation.
     */
    public Uni<WithSubscription> findInTenantWithSubscription(String workspaceId, Mode mode, String id) {
        return withSubscription(workspaceId, mode, id, LockMode.NONE);
    }

    /**
     * The reservation locked for the rest of the transaction, with its tenant's subscription (not locked), in one
     * query: a settlement needs both before it locks the meters.
     */
    public Uni<WithSubscription> findInTenantForUpdateWithSubscription(String workspaceId, Mode mode, String id) {
        return withSubscription(workspaceId, mode, id, LockMode.PESSIMISTIC_WRITE);
    }

    /**
     * The reservation with its tenant's subscription and whether {@code accountId} still holds a connected-account
     * slot, in one query (the delivery check); null when there is no such reservation.
     */
    public Uni<ForDelivery> findForDelivery(String workspaceId, Mode mode, String id, String accountId) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(FOR_DELIVERY, Object[].class)
                        .setParameter("workspaceId", workspaceId)
                        .setParameter("mode", mode.wireName())
                        .setParameter("id", id)
                        .setParameter("accountId", accountId)
                        .getSingleResultOrNull())
                .map(row -> row == null
                        ? null
                        : new ForDelivery(
                                new WithSubscription((ReservationEntity) row[0], (SubscriptionEntity) row[1]),
                                ((Number) row[2]).longValue() > 0));
    }

    /**
     * The reservations of {@code keys} that exist, each with its tenant's subscription, by key, in one query (a batch
     * of delivery outcomes reads its reservations at once).
     */
    public Uni<Map<ReservationEntity.Key, WithSubscription>> findAllWithSubscriptions(Set<ReservationEntity.Key> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Set<String> workspaceIds = new HashSet<>();
        Set<String> modes = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (ReservationEntity.Key key : keys) {
            workspaceIds.add(key.workspaceId);
            modes.add(key.mode);
            ids.add(key.id);
        }
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(ALL_WITH_SUBSCRIPTIONS, Object[].class)
                        .setParameter("workspaceIds", workspaceIds)
                        .setParameter("modes", modes)
                        .setParameter("ids", ids)
                        .getResultList())
                .map(rows -> {
                    Map<ReservationEntity.Key, WithSubscription> found = new HashMap<>();
                    for (Object[] row : rows) {
                        ReservationEntity reservation = (ReservationEntity) row[0];
                        ReservationEntity.Key key =
                                new ReservationEntity.Key(reservation.workspaceId, reservation.mode, reservation.id);
                        // The lists also match other combinations of the keys' parts: only the keys asked count.
                        if (keys.contains(key)) {
                            found.put(key, new WithSubscription(reservation, (SubscriptionEntity) row[1]));
                        }
                    }
                    return found;
                });
    }

    /** A reservation and its subscription, with whether the delivery's account is still connected. */
    public record ForDelivery(WithSubscription found, boolean accountConnected) {}

    /** Those of {@code ids} that exist, in one query (a batch answers its replays without a query per item). */
    public Uni<List<ReservationEntity>> findAllInTenant(String workspaceId, Mode mode, Collection<String> ids) {
        return find("workspaceId = ?1 and mode = ?2 and id in ?3", workspaceId, mode.wireName(), ids)
                .list();
    }

    /**
     * The same, locked in id order: every transaction that locks several reservations takes them in this order,
     * and always before any meter row, so two of them never wait on each other.
     */
    public Uni<List<ReservationEntity>> lockAllInTenant(String workspaceId, Mode mode, Collection<String> ids) {
        return find("workspaceId = ?1 and mode = ?2 and id in ?3", Sort.by("id"), workspaceId, mode.wireName(), ids)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    /** The reservation and its subscription; {@code lock} applies to the reservation alone. */
    private static Uni<WithSubscription> withSubscription(String workspaceId, Mode mode, String id, LockMode lock) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(WITH_SUBSCRIPTION, Object[].class)
                        .setParameter("workspaceId", workspaceId)
                        .setParameter("mode", mode.wireName())
                        .setParameter("id", id)
                        .setLockMode("r", lock)
                        .getSingleResultOrNull())
                .map(row -> row == null
                        ? null
                        : new WithSubscription((ReservationEntity) row[0], (SubscriptionEntity) row[1]));
    }
}
