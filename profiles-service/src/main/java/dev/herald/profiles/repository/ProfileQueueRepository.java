package dev.herald.profiles.repository;

import dev.herald.profiles.model.ProfileQueueEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Posting queues, one per profile, keyed by the profile id (read only after the profile was found in the tenant). */
@ApplicationScoped
public class ProfileQueueRepository implements PanacheRepositoryBase<ProfileQueueEntity, String> {

    /** Deletes the profile's queue with one statement (see {@code ProfileRepository.deleteRow}); true when it had one. */
    public Uni<Boolean> deleteRow(String profileId) {
        return delete("profileId", profileId).map(count -> count > 0);
    }
}
