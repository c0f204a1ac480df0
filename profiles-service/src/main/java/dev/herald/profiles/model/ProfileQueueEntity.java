package dev.herald.profiles.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.ColumnTransformer;

/** A profile's posting queue: its weekly slots in its own time zone (common's {@code PostQueue}). */
@Entity
@Table(name = "profile_queues")
public class ProfileQueueEntity {
    @Id
    @Column(name = "profile_id")
    public String profileId;

    /** An IANA region id such as {@code Europe/Berlin}. */
    @Column(nullable = false)
    public String timezone;

    /**
     * The slots as JSON text ({@code [{"day","time"}]}), read and written as text: the reactive client answers a jsonb
     * array as a {@code JsonArray}, which Hibernate's JSON mapping fails on (as posts-service's {@code PostEntity.media}).
     * Written through text: a string parameter cast straight to jsonb is bound as a JSON string, not parsed.
     */
    @Column(nullable = false)
    @ColumnTransformer(read = "cast(slots as text)", write = "cast(cast(? as text) as jsonb)")
    public String slots;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
