package dev.herald.posts.provider;

import dev.herald.common.wire.Platform;
import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The platforms whose comments Herald reads and answers live. TikTok's public APIs offer ordinary apps no comment
 * reads and Pinterest has no comment API: neither has a provider.
 */
@ApplicationScoped
public class CommentsProviders {
    private final Map<Platform, CommentsProvider> byPlatform = new EnumMap<>(Platform.class);

    public CommentsProviders(@All List<CommentsProvider> providers) {
        providers.forEach(provider -> byPlatform.put(provider.platform(), provider));
    }

    public Optional<CommentsProvider> forPlatform(Platform platform) {
        return Optional.ofNullable(byPlatform.get(platform));
    }
}
