package dev.herald.delivery.provider;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import io.smallrye.mutiny.Uni;
import java.util.Map;

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
     * Settles a target whose last call's outcome is unknown ({@code uncertain}) without ever publishing: published
     * when the platform shows the post, failed (final) when it shows none, {@link PublishOutcome#later} when it cannot
     * say now. A publisher that cannot look answers {@code publication_unconfirmed}.
     */
    default Uni<PublishOutcome> reconcile(PublishRequest request) {
        return Uni.createFrom()
                .item(PublishOutcome.failed(new TargetError(
                        TargetError.PUBLICATION_UNCONFIRMED,
                        "Herald cannot ask " + request.platform().displayName()
                                + " whether the interrupted delivery published"
                                + " the post; check the account before posting it again.",
                        false,
                        Map.of("platform", request.platform().wireName()))));
    }

    /**
     * Whether this publisher streams the post's media to the platform: its calls may run for as long as
     * the upload takes ({@code herald.delivery.ingest-timeout}) rather than {@code publish-timeout}, and the worker
     * renews the delivery's lease while they do.
     */
    default boolean ingestsMedia() {
        return false;
    }
}
