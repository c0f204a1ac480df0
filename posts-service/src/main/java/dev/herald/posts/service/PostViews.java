package dev.herald.posts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Posts as the API shows them. */
@ApplicationScoped
public class PostViews {
    private final ObjectMapper mapper;

    public PostViews(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public Post toWire(PostEntity post, List<PostTargetEntity> targets) {
        return new Post(
                post.id,
                post.text,
                post.status,
                Mode.fromWire(post.mode).orElseThrow(),
                post.media == null ? null : read(post.media, PostMedia.class),
                post.scheduledAt,
                read(post.platformOptions, ObjectNode.class),
                post.firstComment == null ? null : read(post.firstComment, Post.FirstComment.class),
                post.seriesId,
                targets.stream().map(this::toWire).toList(),
                post.createdAt,
                post.updatedAt);
    }

    public PostTarget toWire(PostTargetEntity target) {
        TargetError error = target.error == null ? null : read(target.error, TargetError.class);
        return new PostTarget(
                target.accountId,
                Platform.fromWire(target.platform).orElseThrow(),
                target.profileId,
                target.status,
                target.attempts,
                target.providerPostId,
                target.url,
                error,
                firstComment(target),
                target.completedAt);
    }

    /** The target's first comment as stored, or null when the post asked for none on it. */
    public PostTarget.FirstCommentStatus firstComment(PostTargetEntity target) {
        return target.firstComment == null ? null : read(target.firstComment, PostTarget.FirstCommentStatus.class);
    }

    /** The first comment to post on a target of {@code platform} ({@link FirstComments#textFor}), from the stored post. */
    public String firstCommentText(String postFirstComment, String platformOptions, Platform platform) {
        return FirstComments.textFor(
                platform,
                postFirstComment == null ? null : read(postFirstComment, Post.FirstComment.class),
                platformOptions == null ? null : read(platformOptions, ObjectNode.class));
    }

    public String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    private <T> T read(String json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored " + type.getSimpleName() + " is unreadable", e);
        }
    }
}
