package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.PostTarget.FirstCommentStatus;
import dev.herald.common.wire.TargetError;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a target's first comment is, and what becomes of it when the target ends. No I/O: acceptance
 * ({@link AcceptedPost}), finalization and {@link FirstCommentPosting} decide with these rules, so each lives once.
 */
public final class FirstComments {
    /** The code of a first comment whose target never published (failed or canceled): it was never posted. */
    public static final String TARGET_NOT_PUBLISHED = "target_not_published";

    private FirstComments() {}

    /**
     * The first comment to post on a target of {@code platform}: the platform's override
     * ({@code platform_options.<platform>.first_comment}, {@code {text}}), else the post's; null when neither is given
     * or the platform has no comment API.
     */
    public static String textFor(Platform platform, Post.FirstComment postComment, JsonNode platformOptions) {
        if (!FirstCommentRules.LIMITS.containsKey(platform)) {
            return null;
        }
        JsonNode override = platformOptions == null
                ? null
                : platformOptions.path(platform.wireName()).get("first_comment");
        if (override != null && override.path("text").isTextual()) {
            return override.get("text").asText();
        }
        return postComment == null ? null : postComment.text();
    }

    /** Waiting for its target to publish, or for Herald to post it. */
    public static FirstCommentStatus pending() {
        return new FirstCommentStatus(FirstCommentStatus.PENDING, null, null);
    }

    public static FirstCommentStatus published(String commentId) {
        return new FirstCommentStatus(FirstCommentStatus.PUBLISHED, commentId, null);
    }

    public static FirstCommentStatus failed(TargetError error) {
        return new FirstCommentStatus(FirstCommentStatus.FAILED, null, error);
    }

    /**
     * A pending first comment whose target ended {@code failed} or {@code canceled}: {@code failed} with
     * {@value #TARGET_NOT_PUBLISHED}, so no target is left pending for good and the answer says why nothing was posted.
     */
    public static FirstCommentStatus notPublished(String targetStatus) {
        return failed(new TargetError(
                        TARGET_NOT_PUBLISHED,
                        "The post was not published on this account (the target is " + targetStatus
                                + "), so its first comment was not posted.",
                        false,
                        Map.of())
                .as(TargetError.CATEGORY_PLATFORM, TargetError.ACTION_RETRY_LATER));
    }

    /**
     * A target's first comment once the target took {@code targetStatus}: unchanged unless it is pending. A target
     * that failed or was canceled: {@link #notPublished}. A test target that published: the sandbox's answer at once
     * ({@code sandbox}, from the comment's text). A live one stays pending for {@code FirstCommentJob}; so does one
     * still on its way (queued, uncertain).
     */
    public static FirstCommentStatus afterTargetOutcome(
            FirstCommentStatus current, String targetStatus, boolean test, Supplier<FirstCommentStatus> sandbox) {
        if (!isPending(current)) {
            return current;
        }
        if (PostTarget.FAILED.equals(targetStatus) || PostTarget.CANCELED.equals(targetStatus)) {
            return notPublished(targetStatus);
        }
        if (PostTarget.PUBLISHED.equals(targetStatus) && test) {
            return sandbox.get();
        }
        return current;
    }

    public static boolean isPending(FirstCommentStatus status) {
        return status != null && FirstCommentStatus.PENDING.equals(status.status());
    }

    /**
     * Whether the post's final event must still wait: some published target's first comment is pending (Herald has
     * not posted it yet, and its deadline has not passed).
     */
    public static boolean awaited(List<PostTarget> targets) {
        return targets.stream()
                .anyMatch(target -> PostTarget.PUBLISHED.equals(target.status()) && isPending(target.firstComment()));
    }
}
