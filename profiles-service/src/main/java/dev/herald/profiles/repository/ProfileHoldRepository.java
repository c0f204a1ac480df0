package dev.herald.profiles.repository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Holds on profiles: rows saying "this account / pending post / media item belongs to that profile".
 * Consumers of other services' events add and remove them, keyed by holder id, so a redelivered event
 * changes nothing.
 */
@ApplicationScoped
public class ProfileHoldRepository {

    public Uni<Void> add(String profileId, String kind, String holderId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("""
                        insert into profile_holds (profile_id, kind, holder_id) values (?1, ?2, ?3)
                        on conflict do nothing""")
                        .setParameter(1, profileId)
                        .setParameter(2, kind)
                        .setParameter(3, holderId)
                        .executeUpdate())
                .replaceWithVoid();
    }

    public Uni<Void> remove(String profileId, String kind, String holderId) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "delete from profile_holds where profile_id = ?1 and kind = ?2 and holder_id = ?3")
                        .setParameter(1, profileId)
                        .setParameter(2, kind)
                        .setParameter(3, holderId)
                        .executeUpdate())
                .replaceWithVoid();
    }

    /** Holds per kind, only kinds that have any; empty when nothing holds the profile. */
    public Uni<Map<String, Long>> countByKind(String profileId) {
        return Panache.getSession()
                .flatMap(session -> session.createSelectionQuery("""
                        select kind, count(*) from ProfileHoldEntity where profileId = :profileId
                        group by kind order by kind""", Object[].class)
                        .setParameter("profileId", profileId)
                        .getResultList())
                .map(rows -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    for (Object[] row : rows) {
                        counts.put((String) row[0], ((Number) row[1]).longValue());
                    }
                    return counts;
                });
    }
}
