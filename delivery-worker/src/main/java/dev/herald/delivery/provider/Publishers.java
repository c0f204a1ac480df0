package dev.herald.delivery.provider;

import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses the publisher of each mode and platform once, at startup: the one {@link Publisher} bean that
 * {@link Publisher#publishes publishes} there, else {@link LivePublisherUnavailable}. Two for the same pair is a
 * wiring mistake and stops the service, rather than picking one at random.
 */
@ApplicationScoped
public class Publishers {
    private final Map<Mode, Map<Platform, Publisher>> chosen = new EnumMap<>(Mode.class);

    public Publishers(@Any Instance<Publisher> publishers, LivePublisherUnavailable unavailable) {
        List<Publisher> candidates = publishers.stream()
                .filter(publisher -> !(publisher instanceof LivePublisherUnavailable))
                .toList();
        for (Mode mode : Mode.values()) {
            Map<Platform, Publisher> byPlatform = new EnumMap<>(Platform.class);
            for (Platform platform : Platform.values()) {
                List<Publisher> matching = candidates.stream()
                        .filter(p -> p.publishes(mode, platform))
                        .toList();
                if (matching.size() > 1) {
                    throw new IllegalStateException("more than one publisher for " + platform.wireName() + " in "
                            + mode.wireName() + " mode: " + matching);
                }
                byPlatform.put(platform, matching.isEmpty() ? unavailable : matching.get(0));
            }
            chosen.put(mode, byPlatform);
        }
    }

    public Publisher of(Mode mode, Platform platform) {
        return chosen.get(mode).get(platform);
    }
}
