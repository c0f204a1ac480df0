package dev.herald.accounts.provider;

import dev.herald.common.wire.TikTokPublishingOptions;
import io.smallrye.mutiny.Uni;

/** Live TikTok accounts' publishing options, from the Content Posting API's creator info query. */
public interface TikTokCreatorInfoReader {
    Uni<TikTokPublishingOptions> creatorInfo(String accessToken);
}
