package dev.herald.posts.service;

import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostTarget.FirstCommentStatus;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.model.SimulatedComment;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The simulated audience of test mode: every test target that publishes receives the same three comments (same ids,
 * texts and times relative to its publication), on platforms whose APIs expose comments. They are written when the
 * target's comments are first read ({@code CommentRepository.arriveSimulated}), not when it publishes: nobody can
 * see them before, and most test posts are never asked for their comments.
 */
final class SandboxComments {
    static final List<SimulatedComment> AUDIENCE = List.of(
            new SimulatedComment("Sandbox Fan", "sandbox_fan", "Love this!"),
            new SimulatedComment("Test Follower", "test_follower", "Where can I learn more?"),
            new SimulatedComment("Simulated Critic", "simulated_critic", "Not sure about this one."));

    /** The platform whose API has no comments. */
    static final Platform UNSUPPORTED = Platform.PINTEREST;

    private SandboxComments() {}

    static boolean supported(Platform platform) {
        return platform != UNSUPPORTED;
    }

    /** A first comment whose text starts with this fails in test mode, as a {@code fail_} username fails a post. */
    static final String FAIL_PREFIX = "fail_";

    /**
     * A test target's first comment, posted the moment its target publishes: {@code published} with the sandbox id
     * {@code sbx_cmt_} + the first 24 hex of SHA-256 of {@code <post>:<account>} (the same on every run), or
     * {@code failed} ({@code provider_error}, {@code content}/{@code edit_content}) when its text starts with
     * {@value #FAIL_PREFIX}.
     */
    static FirstCommentStatus firstComment(String postId, String accountId, String text) {
        if (text != null && text.startsWith(FAIL_PREFIX)) {
            return FirstComments.failed(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "The sandbox refused the first comment: its text starts with " + FAIL_PREFIX + ".",
                            false,
                            Map.of())
                    .as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT));
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest((postId + ":" + accountId).getBytes(StandardCharsets.UTF_8));
            return FirstComments.published(
                    "sbx_cmt_" + HexFormat.of().formatHex(hash).substring(0, 24));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
