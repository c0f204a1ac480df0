package dev.herald.posts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

@Entity
@Table(name = "posts")
public class PostEntity {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    /** {@code test} or {@code live}. */
    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String text;

    /**
     * The accepted {@code media} as JSON text, in the shape given (a {@code PostMedia}); null when none. Read and
     * written as text, not through Hibernate's JSON mapping: the reactive client answers a jsonb array as a
     * {@code JsonArray}, which that mapping casts to {@code JsonObject} and fails on.
     */
    @ColumnTransformer(read = "cast(media as text)", write = "cast(? as jsonb)")
    public String media;

    @Column(name = "scheduled_at")
    public Instant scheduledAt;

    /** When the post is handed to delivery: its scheduled time, or its acceptance when not scheduled. */
    @Column(name = "due_at", nullable = false)
    public Instant dueAt;

    /** The accepted {@code platform_options} object, as JSON text. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "platform_options", nullable = false)
    public String platformOptions;

    /** The post's {@code first_comment} as JSON text ({@code Post.FirstComment}); null when none. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "first_comment")
    public String firstComment;

    /** A {@code Post} status. */
    @Column(nullable = false)
    public String status;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "dispatched_at")
    public Instant dispatchedAt;

    @Column(name = "finalized_at")
    public Instant finalizedAt;

    /** The series the post belongs to ({@code post_series}): its first post or one of its copies; null for most. */
    @Column(name = "series_id")
    public String seriesId;

    /** When {@code HandoverWatchdog} handed the post over again (its first {@code post.accepted} may be lost); null if never. */
    @Column(name = "handover_repeated_at")
    public Instant handoverRepeatedAt;

    /** The trace of the request that accepted the post; its post.accepted event, written later, continues it. */
    @Column(name = "trace_parent")
    public String traceParent;
}
