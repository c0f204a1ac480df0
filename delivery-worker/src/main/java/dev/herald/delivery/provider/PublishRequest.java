package dev.herald.delivery.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.model.LeasedDelivery;
import java.util.List;

/**
 * One call to a provider for one target.
 *
 * @param idempotencyToken the same for every attempt of the target ({@link #tokenOf})
 * @param media the post's media items in order (empty when none)
 * @param platformOptions the post's options for this platform ({@code {}} when none)
 * @param attempt which provider call of the target this is, from 1
 * @param reconciling the target is {@code uncertain}: only learn what the platform did, never publish
 */
public record PublishRequest(
        String idempotencyToken,
        String workspaceId,
        Mode mode,
        Platform platform,
        String postId,
        String accountId,
        String accountUsername,
        String text,
        List<Post.Media> media,
        ObjectNode platformOptions,
        int attempt,
        boolean reconciling) {

    /** The post's first (for single-media platforms, only) media item; null for a text post. */
    public Post.Media medium() {
        return media.isEmpty() ? null : media.get(0);
    }

    /** A target is one post on one account, so that pair names its publication at the provider. */
    public static String tokenOf(String postId, String accountId) {
        return postId + ":" + accountId;
    }

    public static PublishRequest of(LeasedDelivery delivery, int attempt) {
        return new PublishRequest(
                tokenOf(delivery.postId(), delivery.accountId()),
                delivery.workspaceId(),
                delivery.mode(),
                delivery.platform(),
                delivery.postId(),
                delivery.accountId(),
                delivery.accountUsername(),
                delivery.text(),
                delivery.media(),
                delivery.platformOptions(),
                attempt,
                false);
    }

    /** The request that settles an uncertain delivery ({@link Publisher#reconcile}). */
    public static PublishRequest reconciling(LeasedDelivery delivery) {
        return new PublishRequest(
                tokenOf(delivery.postId(), delivery.accountId()),
                delivery.workspaceId(),
                delivery.mode(),
                delivery.platform(),
                delivery.postId(),
                delivery.accountId(),
                delivery.accountUsername(),
                delivery.text(),
                delivery.media(),
                delivery.platformOptions(),
                delivery.attempts(),
                true);
    }
}
