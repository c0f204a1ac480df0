package dev.herald.profiles.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.persistence.UniqueViolation;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Profile;
import dev.herald.profiles.messaging.ProfileEventOutbox;
import dev.herald.profiles.model.ProfileEntity;
import dev.herald.profiles.model.ProfileHoldKind;
import dev.herald.profiles.repository.ProfileHoldRepository;
import dev.herald.profiles.repository.ProfileRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Profiles of one workspace and mode. Every change commits together with its {@code profile.*} event in
 * the outbox; a refused change writes nothing.
 */
@ApplicationScoped
public class ProfileService {
    public static final String CURSOR_KIND = "profiles";

    private final ProfileRepository profiles;
    private final ProfileHoldRepository holds;
    private final ProfileEventOutbox events;
    private final CursorCodec cursors;
    private final Clock clock;

    public ProfileService(
            ProfileRepository profiles,
            ProfileHoldRepository holds,
            ProfileEventOutbox events,
            CursorCodec cursors,
            Clock clock) {
        this.profiles = profiles;
        this.holds = holds;
        this.events = events;
        this.cursors = cursors;
        this.clock = clock;
    }

    @WithTransaction
    public Uni<Profile> create(String workspaceId, Mode mode, String name, String externalId) {
        ProfileEntity profile = new ProfileEntity();
        profile.id = ResourceIds.newId(IdPrefix.PROFILE);
        profile.workspaceId = workspaceId;
        profile.mode = mode.wireName();
        profile.name = name;
        profile.externalId = externalId;
        profile.createdAt = Timestamps.now(clock);
        profile.updatedAt = profile.createdAt;
        return ensureExternalIdFree(workspaceId, mode, externalId, null)
                .flatMap(free -> profiles.persistAndFlush(profile))
                .onFailure(UniqueViolation::causedBy)
                .transform(failure -> externalIdTaken(externalId))
                .flatMap(saved -> emit(ProfileEvent.CREATED, saved));
    }

    @WithSession
    public Uni<Profile> get(String workspaceId, Mode mode, String id) {
        return findOrFail(workspaceId, mode, id).map(ProfileService::toWire);
    }

    public Uni<ListEnvelope<Profile>> list(
            String workspaceId, Mode mode, String nameContains, String externalId, String limit, String cursor) {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("q", nameContains);
        filters.put("external_id", externalId);
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, filters);
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        return profiles.listPage(workspaceId, mode, nameContains, externalId, page.after(), page.fetchSize())
                .map(rows -> Page.of(
                        rows,
                        page,
                        row -> new CursorPosition(row.createdAt, row.id),
                        ProfileService::toWire,
                        scope,
                        cursors));
    }

    @WithTransaction
    public Uni<Profile> update(String workspaceId, Mode mode, String id, ProfileChanges changes) {
        return findOrFail(workspaceId, mode, id).flatMap(profile -> {
            String newExternalId =
                    changes.externalId().isSent() ? changes.externalId().orNull() : profile.externalId;
            String newName = changes.name().isSent() ? changes.name().orNull() : profile.name;
            if (Objects.equals(newExternalId, profile.externalId) && newName.equals(profile.name)) {
                return Uni.createFrom().item(toWire(profile));
            }
            boolean externalIdChanged = !Objects.equals(newExternalId, profile.externalId);
            return ensureExternalIdFree(workspaceId, mode, externalIdChanged ? newExternalId : null, profile.id)
                    .flatMap(free -> {
                        profile.name = newName;
                        profile.externalId = newExternalId;
                        profile.updatedAt = Timestamps.now(clock);
                        return profiles.flush();
                    })
                    .onFailure(UniqueViolation::causedBy)
                    .transform(failure -> externalIdTaken(newExternalId))
                    .flatMap(flushed -> emit(ProfileEvent.UPDATED, profile));
        });
    }

    /**
     * Deletes a profile nothing holds. The row is locked first, so a hold added concurrently either
     * commits before (and blocks the delete) or finds the profile gone.
     */
    @WithTransaction
    public Uni<Profile> delete(String workspaceId, Mode mode, String id) {
        return profiles.findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("profile"))
                .flatMap(profile -> holds.countByKind(profile.id).flatMap(counts -> {
                    if (!counts.isEmpty()) {
                        return Uni.createFrom().failure(notEmpty(counts));
                    }
                    Profile deleted = toWire(profile);
                    return profiles.deleteRow(profile.id)
                            .flatMap(ignored -> events.record(ProfileEvent.DELETED, workspaceId, mode, deleted))
                            .replaceWith(deleted);
                }));
    }

    /**
     * Records that {@code holderId} (an account, a pending post, a media item) belongs to the profile, so the
     * profile cannot be deleted while it does. Under the profile's row lock, like deletion, so the two never
     * cross. A profile of another workspace or mode is not found. Holding again changes nothing.
     */
    @WithTransaction
    public Uni<Void> hold(String workspaceId, Mode mode, String profileId, ProfileHoldKind kind, String holderId) {
        if (!IdPrefix.PROFILE.matches(profileId)) {
            return Uni.createFrom().failure(ApiException.notFound("profile"));
        }
        return profiles.findInTenantForUpdate(workspaceId, mode, profileId)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("profile"))
                .flatMap(profile -> holds.add(profile.id, kind.column(), holderId));
    }

    /** Drops the holder's hold; one that is not there (or a profile that is gone) changes nothing. */
    @WithTransaction
    public Uni<Void> release(String workspaceId, Mode mode, String profileId, ProfileHoldKind kind, String holderId) {
        return profiles.findInTenant(workspaceId, mode, profileId)
                .flatMap(profile -> profile == null
                        ? Uni.createFrom().voidItem()
                        : holds.remove(profile.id, kind.column(), holderId));
    }

    private Uni<ProfileEntity> findOrFail(String workspaceId, Mode mode, String id) {
        if (!IdPrefix.PROFILE.matches(id)) {
            return Uni.createFrom().failure(ApiException.notFound("profile"));
        }
        return profiles.findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("profile"));
    }

    private Uni<Void> ensureExternalIdFree(String workspaceId, Mode mode, String externalId, String exceptProfileId) {
        if (externalId == null) {
            return Uni.createFrom().voidItem();
        }
        return profiles.externalIdTaken(workspaceId, mode, externalId, exceptProfileId)
                .flatMap(taken -> taken
                        ? Uni.createFrom().failure(externalIdTaken(externalId))
                        : Uni.createFrom().voidItem());
    }

    private Uni<Profile> emit(String type, ProfileEntity profile) {
        Profile wire = toWire(profile);
        return events.record(
                        type, profile.workspaceId, Mode.fromWire(profile.mode).orElseThrow(), wire)
                .replaceWith(wire);
    }

    private static ApiException externalIdTaken(String externalId) {
        return new ApiException(
                ErrorCode.EXTERNAL_ID_TAKEN,
                "Another profile already uses this external_id.",
                Map.of("external_id", externalId));
    }

    private static ApiException notEmpty(Map<String, Long> counts) {
        return new ApiException(
                ErrorCode.PROFILE_NOT_EMPTY,
                "The profile still has " + String.join(", ", counts.keySet()).replace('_', ' ')
                        + ". Move or unassign its accounts, finish or cancel its pending posts and delete its media first.",
                Map.of("blocking", counts));
    }

    public static Profile toWire(ProfileEntity profile) {
        return new Profile(
                profile.id,
                profile.name,
                profile.externalId,
                Mode.fromWire(profile.mode).orElseThrow(),
                profile.createdAt,
                profile.updatedAt);
    }
}
