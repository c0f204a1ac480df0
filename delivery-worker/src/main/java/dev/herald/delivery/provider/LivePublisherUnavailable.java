package dev.herald.delivery.provider;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Live publishing is not built yet (live publishers come in a later issue): a live target fails at once, not
 * retryable, and nothing is sent anywhere. {@link Publishers} also falls back to it for any platform and mode
 * no other publisher takes.
 */
@ApplicationScoped
public class LivePublisherUnavailable implements Publisher {

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        return Uni.createFrom()
                .item(PublishOutcome.failed(new TargetError(
                        TargetError.PUBLISHER_UNAVAILABLE,
                        "Publishing to " + request.platform().displayName() + " in "
                                + request.mode().wireName()
                                + " mode is not available in this Herald build yet; nothing was sent to the platform.",
                        false,
                        Map.of(
                                "platform",
                                request.platform().wireName(),
                                "mode",
                                request.mode().wireName()))));
    }
}
