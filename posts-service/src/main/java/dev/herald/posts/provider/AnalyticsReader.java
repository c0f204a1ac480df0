package dev.herald.posts.provider;

import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;

/**
 * One platform's numbers for a published post, in exactly one platform call. Failures are as for comments
 * ({@link PlatformFailures}): {@link TokenRefused} for a refused token (the caller renews it once), otherwise the
 * {@code ApiException} that says what went wrong.
 */
public interface AnalyticsReader {

    Platform platform();

    Uni<ProviderMetrics> read(ActingAccount account, String providerPostId);
}
