package dev.herald.profiles.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostQueue;
import dev.herald.profiles.model.ProfileEntity;
import dev.herald.profiles.model.ProfileQueueEntity;
import dev.herald.profiles.repository.ProfileQueueRepository;
import dev.herald.profiles.repository.ProfileRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;

/**
 * Profiles' posting queues ({@code /profiles/{id}/queue}): at most one per profile, replaced whole by each PUT,
 * deleted with the profile (a foreign key). A queue is read by posts-service when a post asks for the next slot;
 * changing it moves no post already scheduled. Changes are written under the profile's row lock, so two PUTs, or a
 * PUT and the profile's deletion, never cross. No event is emitted: nothing consumes queue changes.
 */
@ApplicationScoped
public class ProfileQueueService {
    private static final TypeReference<List<PostQueue.Slot>> SLOTS = new TypeReference<>() {};

    private final ProfileRepository profiles;
    private final ProfileQueueRepository queues;
    private final ObjectMapper mapper;
    private final Clock clock;

    public ProfileQueueService(
            ProfileRepository profiles, ProfileQueueRepository queues, ObjectMapper mapper, Clock clock) {
        this.profiles = profiles;
        this.queues = queues;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** Sets the profile's queue; {@code slots} are valid, without duplicates, and stored in {@link PostQueue#SLOT_ORDER}. */
    @WithTransaction
    public Uni<PostQueue> put(
            String workspaceId, Mode mode, String profileId, String timezone, List<PostQueue.Slot> slots) {
        List<PostQueue.Slot> ordered =
                slots.stream().sorted(PostQueue.SLOT_ORDER).toList();
        return profile(workspaceId, mode, profileId, true)
                .flatMap(profile -> queues.findById(profile.id).flatMap(existing -> {
                    ProfileQueueEntity queue = existing != null ? existing : new ProfileQueueEntity();
                    queue.profileId = profile.id;
                    queue.timezone = timezone;
                    queue.slots = json(ordered);
                    queue.updatedAt = Timestamps.now(clock);
                    return (existing != null
                                    ? queues.flush()
                                    : queues.persistAndFlush(queue).replaceWithVoid())
                            .replaceWith(toWire(queue));
                }));
    }

    /** The profile's queue; {@code 404} when the profile has none or is not the caller's. */
    @WithSession
    public Uni<PostQueue> get(String workspaceId, Mode mode, String profileId) {
        return profile(workspaceId, mode, profileId, false)
                .flatMap(profile -> queues.findById(profile.id))
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("queue for this profile"))
                .map(this::toWire);
    }

    /** Deletes the profile's queue (posts it scheduled keep their times); {@code 404} when it has none. */
    @WithTransaction
    public Uni<Void> delete(String workspaceId, Mode mode, String profileId) {
        return profile(workspaceId, mode, profileId, true)
                .flatMap(profile -> queues.deleteRow(profile.id))
                .map(deleted -> {
                    if (!deleted) {
                        throw ApiException.notFound("queue for this profile");
                    }
                    return null;
                });
    }

    /** The caller's profile, locked for the rest of the transaction when {@code locked}; 404 when there is none. */
    private Uni<ProfileEntity> profile(String workspaceId, Mode mode, String id, boolean locked) {
        if (!IdPrefix.PROFILE.matches(id)) {
            return Uni.createFrom().failure(ApiException.notFound("profile"));
        }
        return (locked
                        ? profiles.findInTenantForUpdate(workspaceId, mode, id)
                        : profiles.findInTenant(workspaceId, mode, id))
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("profile"));
    }

    private String json(List<PostQueue.Slot> slots) {
        try {
            return mapper.writeValueAsString(slots);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("slots cannot be written as JSON", e);
        }
    }

    private PostQueue toWire(ProfileQueueEntity queue) {
        try {
            return new PostQueue(
                    queue.profileId, queue.timezone, mapper.readValue(queue.slots, SLOTS), queue.updatedAt);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("profile " + queue.profileId + " has unreadable queue slots", e);
        }
    }
}
