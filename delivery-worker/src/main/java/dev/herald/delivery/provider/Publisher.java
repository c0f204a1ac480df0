package dev.herald.delivery.provider;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;

/**
 * Publishes one target's post on its platform. Calls carry an idempotency token (post id + account id), and a
 * publisher must make a repeated call with the same token answer the same post rather than publish again: the
 * worker repeats a call whose outcome it never learned (a timeout, a worker that died mid-call).
 */
public interface Publisher {

    /** Whether this publisher delivers to {@code platform} in {@code mode}. */
    boolean publishes(Mode mode, Platform platform);

    /**
     * The provider's answer. A failed {@link Uni} counts as a retryable provider error; a refusal the provider
     * explained is an item ({@link PublishOutcome#failed}).
     */
    Uni<PublishOutcome> publish(PublishRequest request);

    /**
     * Whether this publisher streams the post's media to the platform (decision 121): its calls may run for as long as
     * the upload takes ({@code herald.delivery.ingest-timeout}) rather than {@code publish-timeout}, and the worker
     * renews the delivery's lease while they do.
     */
    default boolean ingestsMedia() {
        return false;
    }
}
