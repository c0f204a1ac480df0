package dev.herald.profiles.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * One holder (account, pending post, media item) keeping a profile from being deleted. Mapped so the per-kind counts
 * are HQL, whose plans Hibernate keeps (a native select stored a new plan on every call: Hibernate 7.1 keys it by a
 * result mapping built anew); rows are added and removed with native statements in {@code ProfileHoldRepository}.
 */
@Entity
@Table(name = "profile_holds")
@IdClass(ProfileHoldEntity.Key.class)
public class ProfileHoldEntity {
    @Id
    @Column(name = "profile_id")
    public String profileId;

    @Id
    public String kind;

    @Id
    @Column(name = "holder_id")
    public String holderId;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The primary key, as JPA's {@code @IdClass} wants it (a mutable class with a no-argument constructor). */
    public static class Key implements Serializable {
        public String profileId;
        public String kind;
        public String holderId;

        public Key() {}

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(profileId, key.profileId)
                    && Objects.equals(kind, key.kind)
                    && Objects.equals(holderId, key.holderId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(profileId, kind, holderId);
        }
    }
}
