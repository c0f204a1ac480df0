package dev.herald.posts.provider;

import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * One platform's comment API. Each method is exactly one platform call (one comment request, spec section 8).
 * A refused token fails with {@link TokenRefused} (the caller renews it once and calls again); anything else that
 * goes wrong fails with the {@code ApiException} the customer gets ({@link PlatformFailures}).
 */
public interface CommentsProvider {

    Platform platform();

    /** The newest comments on a published post ({@code providerPostId}), with the replies the platform gives along. */
    Uni<List<ProviderComment>> read(ActingAccount account, String providerPostId);

    /**
     * Posts {@code text} as the account, in reply to the top-level comment {@code providerCommentId}; the reply as
     * the platform took it.
     */
    Uni<ProviderComment> reply(ActingAccount account, String providerCommentId, String text);

    /**
     * Posts {@code text} as the account, as a top-level comment on its published post {@code providerPostId} (a first
     * comment); the comment as the platform took it.
     */
    Uni<ProviderComment> comment(ActingAccount account, String providerPostId, String text);
}
