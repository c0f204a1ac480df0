package dev.herald.posts.service;

import dev.herald.common.wire.Platform;
import dev.herald.posts.model.SimulatedComment;
import java.util.List;

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
}
