package dev.herald.delivery.provider.media;

import dev.herald.common.wire.TargetError;

/** The media cannot be ingested for this target; {@link #error()} says why (and whether a later attempt may do better). */
public final class MediaRefused extends RuntimeException {
    private final transient TargetError error;

    public MediaRefused(TargetError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public TargetError error() {
        return error;
    }
}
