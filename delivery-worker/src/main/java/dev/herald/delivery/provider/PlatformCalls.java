package dev.herald.delivery.provider;

import dev.herald.common.wire.ProviderAccess;
import io.smallrye.mutiny.Uni;

/**
 * The two calls a live publisher makes for one target, for {@link PublicationLedger} to drive. A failed {@link Uni}
 * (no answer, a broken connection) leaves the outcome unknown.
 */
public interface PlatformCalls {

    /** Publishes the post. */
    Uni<PlatformAnswer> create(ProviderAccess access);

    /**
     * Looks for the post an earlier call whose outcome is unknown may have made: {@link PlatformAnswer.Published},
     * {@link PlatformAnswer.NotFound}, {@link PlatformAnswer.TokenRefused}, or any other answer, whose error then fails
     * the attempt (a platform that does not let Herald look answers a final one, rather than risk a second post).
     */
    Uni<PlatformAnswer> find(ProviderAccess access);
}
