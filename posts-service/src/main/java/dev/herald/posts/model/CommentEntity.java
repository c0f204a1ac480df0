package dev.herald.posts.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "comments")
public class CommentEntity {
    @Id
    public String id;

    @Column(name = "workspace_id", nullable = false)
    public String workspaceId;

    @Column(nullable = false)
    public String mode;

    @Column(name = "account_id", nullable = false)
    public String accountId;

    @Column(name = "post_id")
    public String postId;

    @Column(nullable = false)
    public String platform;

    @Column(name = "parent_id")
    public String parentId;

    @Column(nullable = false)
    public String text;

    @Column(name = "author_name", nullable = false)
    public String authorName;

    @Column(name = "author_username", nullable = false)
    public String authorUsername;

    @Column(name = "from_account", nullable = false)
    public boolean fromAccount;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The platform's id of a live comment (null in test mode). */
    @Column(name = "provider_comment_id")
    public String providerCommentId;
}
