package dev.herald.delivery.provider;

import dev.herald.common.wire.ProviderAccess;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * The two calls a live publisher makes for one target, for {@link PublicationLedger} to drive. A failed {@link Uni}
 * (no answer, a broken connection) leaves the outcome unknown.
 *
 * @param create publishes the post
 * @param find   looks for the post an earlier call whose outcome is unknown may have made:
 *               {@link PlatformAnswer.Published}, {@link PlatformAnswer.NotFound}, {@link PlatformAnswer.TokenRefused},
 *               or any other answer, whose error then fails the attempt (a platform that does not let Herald look
 *               answers a final one rather than risk a second post)
 */
public record PlatformCalls(Function<ProviderAccess, Uni<PlatformAnswer>> create,
                            Function<ProviderAccess, Uni<PlatformAnswer>> find) {
}
