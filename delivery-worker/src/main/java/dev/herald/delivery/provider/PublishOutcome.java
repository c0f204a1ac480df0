package dev.herald.delivery.provider;

import dev.herald.common.wire.TargetError;
import java.time.Duration;

/**
 * A provider's answer: published (with its post id and url when it gives them), failed with an error, or not yet
 * decided ({@link #later}).
 *
 * @param checkAgainIn set only by {@link #later}
 * @param mayHavePublished set only by {@link #unknown}
 */
public record PublishOutcome(
        boolean published,
        String providerPostId,
        String url,
        TargetError error,
        Duration checkAgainIn,
        boolean mayHavePublished) {

    public static PublishOutcome published(String providerPostId, String url) {
        return new PublishOutcome(true, providerPostId, url, null, null, false);
    }

    public static PublishOutcome failed(TargetError error) {
        return new PublishOutcome(false, null, null, error, null, false);
    }

    /**
     * Failed, but the platform may have published all the same (a timeout, a 5xx after the request reached it): a
     * retry looks before it publishes, and when no attempt is left the target is {@code uncertain} until the
     * reconciler learns what the platform did.
     */
    public static PublishOutcome unknown(TargetError error) {
        return new PublishOutcome(false, null, null, error, null, true);
    }

    /**
     * Nothing went wrong and nothing is final yet: the platform is still processing what an earlier call handed it,
     * or the delivery waits its turn (a media ingest slot). The worker gives the lease back, does not count the call
     * as an attempt, and calls the publisher again after {@code checkAgainIn}. A publisher answering this must bound
     * the wait itself (a processing deadline), or the target would never end.
     */
    public static PublishOutcome later(Duration checkAgainIn) {
        if (checkAgainIn == null || checkAgainIn.isNegative()) {
            throw new IllegalArgumentException("checkAgainIn must be zero or positive: " + checkAgainIn);
        }
        return new PublishOutcome(false, null, null, null, checkAgainIn, false);
    }

    public boolean isLater() {
        return checkAgainIn != null;
    }
}
