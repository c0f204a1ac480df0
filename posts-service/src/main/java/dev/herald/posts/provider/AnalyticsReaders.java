package dev.herald.posts.provider;

import dev.herald.common.wire.Platform;
import io.quarkus.arc.All;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The platforms whose post analytics Herald reads live, one documented call each, as the account. The others answer
 * {@code unavailable} with {@code reason: platform_not_supported} until they have a reader.
 */
@ApplicationScoped
public class AnalyticsReaders {
    private final Map<Platform, AnalyticsReader> byPlatform = new EnumMap<>(Platform.class);

    public AnalyticsReaders(@All List<AnalyticsReader> readers) {
        readers.forEach(reader -> byPlatform.put(reader.platform(), reader));
    }

    public Optional<AnalyticsReader> forPlatform(Platform platform) {
        return Optional.ofNullable(byPlatform.get(platform));
    }
}
