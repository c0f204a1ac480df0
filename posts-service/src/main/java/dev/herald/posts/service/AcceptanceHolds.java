package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.client.ProfilesClient;
import dev.herald.common.client.UsageClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ReservationBatch;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.model.PostTargetEntity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * What an acceptance takes from the owners of the limits before it commits the post (DESIGN rule 1): its next_slot
 * slot, one publication reservation per target (usage-service) and a hold on every profile it posts for
 * (profiles-service), so none of them can be spent or deleted under it; and the same given back when the acceptance
 * fails, so a refusal charges nothing.
 */
@ApplicationScoped
public class AcceptanceHolds {
    private static final Logger LOG = Logger.getLogger(AcceptanceHolds.class);

    private final UsageClient usage;
    private final ProfilesClient profiles;
    private final NextSlots nextSlots;
    private final Clock clock;

    public AcceptanceHolds(UsageClient usage, ProfilesClient profiles, NextSlots nextSlots, Clock clock) {
        this.usage = usage;
        this.profiles = profiles;
        this.nextSlots = nextSlots;
        this.clock = clock;
    }

    /** Claims the slot, then reserves, then holds the profiles; fails at the first refusal (nothing is given back here). */
    Uni<Void> take(AcceptedPost accepted) {
        return claimSlot(accepted).chain(() -> reserve(accepted)).chain(() -> holdProfiles(accepted));
    }

    /**
     * A next_slot post takes its slot before anything is reserved, so the reservation falls in the slot's period. The
     * slot validation found is taken unless another post took it meanwhile; then the next free one is.
     */
    private Uni<Void> claimSlot(AcceptedPost accepted) {
        if (accepted.slot() == null) {
            return Uni.createFrom().voidItem();
        }
        return nextSlots
                .claim(
                        accepted.post().id,
                        accepted.post().workspaceId,
                        accepted.mode(),
                        accepted.slot(),
                        Timestamps.now(clock))
                .invoke(accepted::scheduleAt)
                .replaceWithVoid();
    }

    private Uni<Void> reserve(AcceptedPost accepted) {
        List<ReservationBatch.Item> items = accepted.targets().stream()
                .map(target -> new ReservationBatch.Item(
                        target.reservationId, UsageReservation.METER_PUBLICATIONS, 1, accepted.post().scheduledAt))
                .toList();
        return usage.reserve(
                accepted.post().workspaceId,
                accepted.mode(),
                new ReservationBatch(items, accepted.mode() == Mode.LIVE));
    }

    private Uni<Void> holdProfiles(AcceptedPost accepted) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String profileId : accepted.profileIds()) {
            // A profile that is gone (deleted after the account was read) simply cannot be held.
            chain = chain.chain(() -> profiles.holdForPendingPost(
                            accepted.post().workspaceId, accepted.mode(), profileId, accepted.post().id)
                    .replaceWithVoid());
        }
        return chain;
    }

    /**
     * After a failure: the slot, reservations and holds the request took are given back. True when all were; what could
     * not be given back now is left to {@code AbandonedAcceptanceJob}.
     */
    Uni<Boolean> giveBack(AcceptedPost accepted) {
        String workspaceId = accepted.post().workspaceId;
        List<Uni<Boolean>> returns = new ArrayList<>();
        for (PostTargetEntity target : accepted.targets()) {
            returns.add(usage.release(workspaceId, accepted.mode(), target.reservationId)
                    .replaceWith(true)
                    .onFailure()
                    .invoke(e -> LOG.warnf(
                            "post %s: reservation %s not released: %s",
                            accepted.post().id, target.reservationId, e.toString()))
                    .onFailure()
                    .recoverWithItem(false));
        }
        for (String profileId : accepted.profileIds()) {
            returns.add(profiles.releaseForPendingPost(workspaceId, accepted.mode(), profileId, accepted.post().id)
                    .replaceWith(true)
                    .onFailure()
                    .invoke(e -> LOG.warnf(
                            "post %s: hold on %s not released: %s", accepted.post().id, profileId, e.toString()))
                    .onFailure()
                    .recoverWithItem(false));
        }
        if (accepted.slot() != null) {
            returns.add(nextSlots.giveBack(accepted.post().id));
        }
        return Uni.join().all(returns).andCollectFailures().map(given -> !given.contains(false));
    }

    /** The profiles a post's targets hold (one hold per profile, in target order); a target without one holds none. */
    static Set<String> profileIds(List<PostTargetEntity> targets) {
        Set<String> ids = new LinkedHashSet<>();
        targets.forEach(target -> {
            if (target.profileId != null) {
                ids.add(target.profileId);
            }
        });
        return ids;
    }
}
