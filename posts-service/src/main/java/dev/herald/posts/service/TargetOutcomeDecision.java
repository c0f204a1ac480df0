package dev.herald.posts.service;

import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What a delivery outcome ({@code target.completed}) does to its post, decided from the post and its targets as read:
 * nothing ({@link #ignored()} says why), or the named target takes the worker's result and, once that leaves every
 * target published or failed, the post takes its final status. No I/O: {@link PostFinalization} applies the same
 * decision on both of its paths, the one statement against the post as read and the transaction against the locked
 * post, so the rule lives here once. Whether the event was applied before is the processed-events mark's question,
 * asked by each path before (transaction) or with (statement) the write.
 */
public record TargetOutcomeDecision(Ignored ignored, PostTargetEntity target, TargetResult result, String finalStatus) {

    /** Why an outcome changes nothing. */
    public enum Ignored {
        /** The event's status is none of {@code published}, {@code failed}, {@code uncertain}, {@code queued}. */
        NOT_AN_OUTCOME,
        /** No such post, or it belongs to another workspace or mode. */
        NOT_THE_TENANTS_POST,
        /** The event's account is not one of the post's targets. */
        NOT_A_TARGET,
        /** The target is final already (canceled, or settled by a reconciler): the first outcome stands. */
        TARGET_ALREADY_FINAL
    }

    /** The target's state after the outcome; {@code completedAt} is null while the outcome is uncertain. */
    public record TargetResult(
            String status, int attempts, String providerPostId, String url, TargetError error, Instant completedAt) {}

    /**
     * {@code queued} is not an end either: delivery-worker sends it when it holds a target whose account needs
     * re-authorization, so the target shows as waiting (with the reason) rather than publishing.
     */
    private static final Set<String> OUTCOMES =
            Set.of(PostTarget.PUBLISHED, PostTarget.FAILED, PostTarget.UNCERTAIN, PostTarget.QUEUED);

    /** True when the outcome changes the target (and perhaps the post); false when {@link #ignored()} says why not. */
    public boolean applies() {
        return ignored == null;
    }

    /**
     * The decision for {@code event} given {@code post} (null when there is none) and its {@code targets} as read. A
     * target's attempts never go down; an uncertain outcome has no completion time.
     */
    public static TargetOutcomeDecision of(
            TargetCompletedEvent event, PostEntity post, List<PostTargetEntity> targets) {
        if (event.status() == null || !OUTCOMES.contains(event.status())) {
            return ignoring(Ignored.NOT_AN_OUTCOME, null);
        }
        if (post == null
                || !post.workspaceId.equals(event.workspaceId())
                || !post.mode.equals(event.mode().wireName())) {
            return ignoring(Ignored.NOT_THE_TENANTS_POST, null);
        }
        PostTargetEntity target = targets.stream()
                .filter(row -> row.accountId.equals(event.accountId()))
                .findFirst()
                .orElse(null);
        if (target == null) {
            return ignoring(Ignored.NOT_A_TARGET, null);
        }
        if (target.isFinal()) {
            return ignoring(Ignored.TARGET_ALREADY_FINAL, target);
        }
        TargetResult result = new TargetResult(
                event.status(),
                Math.max(target.attempts, event.attempts()),
                event.providerPostId(),
                event.url(),
                event.error(),
                PostTarget.UNCERTAIN.equals(event.status()) || PostTarget.QUEUED.equals(event.status())
                        ? null
                        : event.completedAt());
        List<String> statuses = targets.stream()
                .map(row -> row == target ? result.status() : row.status)
                .toList();
        return new TargetOutcomeDecision(null, target, result, finalStatus(statuses));
    }

    /**
     * The post's final status once every target is published or failed, else null: {@code published} when none
     * failed, {@code failed} when none published, {@code partially_failed} otherwise.
     */
    static String finalStatus(List<String> targetStatuses) {
        long published =
                targetStatuses.stream().filter(PostTarget.PUBLISHED::equals).count();
        long failed = targetStatuses.stream().filter(PostTarget.FAILED::equals).count();
        if (published + failed < targetStatuses.size()) {
            return null;
        }
        if (failed == 0) {
            return Post.PUBLISHED;
        }
        return published == 0 ? Post.FAILED : Post.PARTIALLY_FAILED;
    }

    private static TargetOutcomeDecision ignoring(Ignored why, PostTargetEntity target) {
        return new TargetOutcomeDecision(why, target, null, null);
    }
}
