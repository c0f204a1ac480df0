package dev.herald.posts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

@Entity
@Table(name = "post_targets")
@IdClass(PostTargetKey.class)
public class PostTargetEntity {
    @Id
    @Column(name = "post_id")
    public String postId;

    @Id
    @Column(name = "account_id")
    public String accountId;

    /** The target's place in the request's {@code account_ids}. */
    @Column(nullable = false)
    public int position;

    @Column(nullable = false)
    public String platform;

    /** The account's profile at acceptance. */
    @Column(name = "profile_id")
    public String profileId;

    /** The account's username at acceptance (the sandbox steers outcomes by it). */
    @Column(name = "account_username", nullable = false)
    public String accountUsername;

    /** The publication reservation this target holds in usage-service. */
    @Column(name = "reservation_id", nullable = false)
    public String reservationId;

    /** A {@code PostTarget} status. */
    @Column(nullable = false)
    public String status;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "provider_post_id")
    public String providerPostId;

    public String url;

    /** The {@code TargetError} as JSON text, when the target failed. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String error;

    /** The first comment's outcome as JSON text ({@code PostTarget.FirstCommentStatus}); null when none was asked. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "first_comment")
    public String firstComment;

    /** When {@code FirstCommentJob} may next try to post the pending first comment (null: at once). */
    @Column(name = "first_comment_due_at")
    public Instant firstCommentDueAt;

    /** The tries made at posting the first comment. */
    @Column(name = "first_comment_attempts", nullable = false)
    public int firstCommentAttempts;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * When a live target's comments were last read from its platform (a read within the freshness window asks the
     * platform nothing), or when a test target's simulated comments were written (at its first read); null when never.
     */
    @Column(name = "comments_read_at")
    public Instant commentsReadAt;

    /** Published, failed or canceled: nothing changes it any more. */
    public boolean isFinal() {
        return "published".equals(status) || "failed".equals(status) || "canceled".equals(status);
    }
}
