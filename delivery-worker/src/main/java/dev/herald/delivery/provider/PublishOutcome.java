package dev.herald.delivery.provider;

import dev.herald.common.wire.TargetError;

/** A provider's answer: published (with its post id and url when it gives them), or failed with an error. */
public record PublishOutcome(boolean published, String providerPostId, String url, TargetError error) {

    public static PublishOutcome published(String providerPostId, String url) {
        return new PublishOutcome(true, providerPostId, url, null);
    }

    public static PublishOutcome failed(TargetError error) {
        return new PublishOutcome(false, null, null, error);
    }
}
