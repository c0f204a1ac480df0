package dev.herald.posts.service;

import dev.herald.common.wire.Platform;
import dev.herald.posts.model.CommentEntity;
import dev.herald.posts.model.PostTargetEntity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The simulated audience of test mode: every test target that publishes receives the same three comments
 * (same ids, texts and times relative to its publication), on platforms whose APIs expose comments.
 */
final class SandboxComments {
    static final int PER_TARGET = 3;
    private static final String[][] AUDIENCE = {
            {"Sandbox Fan", "sandbox_fan", "Love this!"},
            {"Test Follower", "test_follower", "Where can I learn more?"},
            {"Simulated Critic", "simulated_critic", "Not sure about this one."}};

    private SandboxComments() {
    }

    static boolean supported(Platform platform) {
        return platform != Platform.PINTEREST;
    }

    static List<CommentEntity> forPublished(String workspaceId, String mode, PostTargetEntity target, Instant publishedAt) {
        List<CommentEntity> comments = new ArrayList<>();
        if (!supported(Platform.fromWire(target.platform).orElseThrow())) {
            return comments;
        }
        for (int i = 0; i < PER_TARGET; i++) {
            CommentEntity comment = new CommentEntity();
            comment.id = "cmt_" + digest(target.postId + ":" + target.accountId + ":" + i);
            comment.workspaceId = workspaceId;
            comment.mode = mode;
            comment.accountId = target.accountId;
            comment.postId = target.postId;
            comment.platform = target.platform;
            comment.authorName = AUDIENCE[i][0];
            comment.authorUsername = AUDIENCE[i][1];
            comment.text = AUDIENCE[i][2];
            comment.fromAccount = false;
            // Just after publication, never in the future: a reply made later lists above them.
            comment.createdAt = publishedAt.plus(Duration.ofMillis(i + 1L));
            comments.add(comment);
        }
        return comments;
    }

    private static String digest(String seed) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
