package dev.herald.delivery.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A delivery this worker holds the lease of: everything an attempt needs, and the {@code leaseToken} that every
 * write about it must present. A write that finds another token (the lease lapsed and another worker claimed
 * the row) changes nothing.
 *
 * @param attempts  provider calls made before this lease
 * @param deferrals consecutive postponements because usage-service could not answer
 * @param platformOptions the post's options for this target's platform ({@code {}} when none)
 * @param traceParent the W3C traceparent of the post.accepted record it came from, or null
 * @param dueAt when the target fell due (the post's scheduled time, or its acceptance): its hold deadline counts
 *     from here
 * @param heldAccount the hold on its account when the lease was taken (account.reauth_required seen), or null
 */
public record LeasedDelivery(
        String postId,
        String accountId,
        String workspaceId,
        Mode mode,
        Platform platform,
        String accountUsername,
        String reservationId,
        String text,
        List<Post.Media> media,
        ObjectNode platformOptions,
        int attempts,
        int deferrals,
        UUID leaseToken,
        String traceParent,
        Instant dueAt,
        HeldAccount heldAccount) {

    /** The account needs re-authorization: {@code reconnectUrl} (null when unknown) is the link that mends it. */
    public record HeldAccount(String reconnectUrl) {}

    /** The same delivery as part of another span of its trace (an attempt's): what it writes carries that span. */
    public LeasedDelivery inTrace(String attemptTraceParent) {
        return new LeasedDelivery(
                postId,
                accountId,
                workspaceId,
                mode,
                platform,
                accountUsername,
                reservationId,
                text,
                media,
                platformOptions,
                attempts,
                deferrals,
                leaseToken,
                attemptTraceParent,
                dueAt,
                heldAccount);
    }
}
