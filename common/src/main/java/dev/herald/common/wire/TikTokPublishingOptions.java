package dev.herald.common.wire;

import java.util.List;

/**
 * What a TikTok creator may publish right now (TikTok's creator_info): shown to the user before a post,
 * whose privacy must be chosen explicitly from {@code privacyLevelOptions}, and validated again before
 * delivery because creators can change these controls at any time.
 */
public record TikTokPublishingOptions(
        String creatorNickname,
        String creatorUsername,
        String creatorAvatarUrl,
        List<String> privacyLevelOptions,
        boolean commentDisabled,
        boolean duetDisabled,
        boolean stitchDisabled,
        int maxVideoPostDurationSec) {}
