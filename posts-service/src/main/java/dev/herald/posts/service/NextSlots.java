package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.ProfilesClient;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.posts.repository.PostSlotStatements;
import dev.herald.posts.service.queue.QueueSlots;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * {@code "scheduled_at": "next_slot"}: the post takes the earliest slot of its profile's queue (profiles-service) that
 * is at least 5 s and at most a year ahead and that no other post of the profile holds. The profile is the one every
 * account of the post belongs to. Validation {@link #choose}s the slot free now (what {@code POST /posts/validate}
 * reports); acceptance {@link #claim}s one in {@code post_slots}, whose unique key gives racing requests distinct
 * slots: a request that loses a slot reads what is taken again and claims the next free one.
 */
@ApplicationScoped
public class NextSlots {
    static final String FIELD = "scheduled_at";
    private static final Logger LOG = Logger.getLogger(NextSlots.class);

    private final ProfilesClient profiles;
    private final PostSlotStatements slots;

    public NextSlots(ProfilesClient profiles, PostSlotStatements slots) {
        this.profiles = profiles;
        this.slots = slots;
    }

    /**
     * A next_slot post's slot as validation finds it: the profile, its queue and the slot free now, or the problem on
     * {@code scheduled_at} that keeps it from having one (all null when no account was found, which is refused anyway).
     */
    public record Choice(String profileId, QueueSlots queue, Instant at, FieldError problem) {
        static Choice refused(String message) {
            return new Choice(null, null, null, new FieldError(FIELD, "invalid_value", message));
        }
    }

    Uni<Choice> choose(String workspaceId, Mode mode, List<AccountForPosting> destinations, Instant now) {
        if (destinations.isEmpty()) {
            return Uni.createFrom().item(new Choice(null, null, null, null));
        }
        List<String> unassigned = destinations.stream()
                .filter(account -> account.account().profileId() == null)
                .map(account -> account.account().id())
                .toList();
        if (!unassigned.isEmpty()) {
            return Uni.createFrom()
                    .item(Choice.refused("next_slot takes a slot of the queue of the profile the post's accounts belong"
                            + " to; " + String.join(", ", unassigned) + " belong" + (unassigned.size() == 1 ? "s" : "")
                            + " to no profile."));
        }
        Set<String> profileIds = destinations.stream()
                .map(account -> account.account().profileId())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (profileIds.size() > 1) {
            return Uni.createFrom()
                    .item(Choice.refused("next_slot takes a slot of one profile's queue; the post's accounts belong to"
                            + " several profiles (" + String.join(", ", profileIds) + "). Post to one profile's"
                            + " accounts at a time."));
        }
        String profileId = profileIds.iterator().next();
        return profiles.queue(workspaceId, mode, profileId).flatMap(queue -> {
            if (queue.isEmpty()) {
                return Uni.createFrom()
                        .item(Choice.refused("Profile " + profileId + " has no posting queue for next_slot to take a"
                                + " slot of; set one with PUT /profiles/" + profileId + "/queue."));
            }
            QueueSlots queueSlots = QueueSlots.of(queue.get());
            List<Instant> candidates = window(queueSlots, now);
            return slots.taken(workspaceId, mode, profileId, first(candidates), last(candidates))
                    .map(taken -> candidates.stream()
                            .filter(at -> !taken.contains(at))
                            .findFirst()
                            .map(at -> new Choice(profileId, queueSlots, at, null))
                            .orElseGet(() -> Choice.refused(full(profileId))));
        });
    }

    /**
     * Claims the earliest free slot of the chosen queue for the post (its acceptance under way), which is the chosen
     * one unless another post took it meanwhile; fails with {@code 422} when none is left, and as
     * {@code idempotency_key_in_use} when the acceptance was abandoned meanwhile (as its commit would).
     */
    Uni<Instant> claim(String postId, String workspaceId, Mode mode, Choice choice, Instant now) {
        List<Instant> candidates = window(choice.queue(), now);
        return slots.taken(workspaceId, mode, choice.profileId(), first(candidates), last(candidates))
                .flatMap(taken -> claimFrom(postId, workspaceId, mode, choice.profileId(), candidates, 0, taken, now));
    }

    private Uni<Instant> claimFrom(
            String postId,
            String workspaceId,
            Mode mode,
            String profileId,
            List<Instant> candidates,
            int from,
            Set<Instant> taken,
            Instant now) {
        int next = from;
        while (next < candidates.size() && taken.contains(candidates.get(next))) {
            next++;
        }
        if (next == candidates.size()) {
            return Uni.createFrom()
                    .failure(ApiException.validationFailed(
                            List.of(new FieldError(FIELD, "invalid_value", full(profileId)))));
        }
        Instant at = candidates.get(next);
        int after = next + 1;
        return slots.claim(postId, workspaceId, mode, profileId, at, now).flatMap(claim -> switch (claim) {
            case CLAIMED -> Uni.createFrom().item(at);
            case ABANDONED -> Uni.createFrom().failure(IdempotencyKeyClaims.inUse());
            // Another post took it: what else was taken meanwhile is read again, so a crowd of requests moves on at
            // once.
            case TAKEN ->
                slots.taken(workspaceId, mode, profileId, at, last(candidates))
                        .flatMap(fresh ->
                                claimFrom(postId, workspaceId, mode, profileId, candidates, after, fresh, now));
        });
    }

    /** After a failed acceptance: frees the slot it claimed. True when it is free (or none was claimed). */
    Uni<Boolean> giveBack(String postId) {
        return slots.release(postId)
                .replaceWith(true)
                .onFailure()
                .invoke(e -> LOG.warnf("post %s: slot not released: %s", postId, e.toString()))
                .onFailure()
                .recoverWithItem(false);
    }

    private static List<Instant> window(QueueSlots queue, Instant now) {
        return queue.between(now.plus(PostRules.MIN_SCHEDULE_AHEAD), now.plus(PostRules.MAX_SCHEDULE_AHEAD));
    }

    private static Instant first(List<Instant> candidates) {
        return candidates.isEmpty() ? Instant.EPOCH : candidates.get(0);
    }

    private static Instant last(List<Instant> candidates) {
        return candidates.isEmpty() ? Instant.EPOCH : candidates.get(candidates.size() - 1);
    }

    private static String full(String profileId) {
        return "Every slot of profile " + profileId + "'s queue in the coming year is taken by another post; add slots"
                + " with PUT /profiles/" + profileId + "/queue or give the post a scheduled_at.";
    }
}
