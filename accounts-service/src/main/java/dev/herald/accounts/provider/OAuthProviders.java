package dev.herald.accounts.provider;

import dev.herald.common.wire.Platform;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OAuth provider of each platform. Where several beans serve one platform (a deployment's own
 * implementation beside the built-in one, or a local fake in tests), the one with client credentials wins;
 * two configured providers for one platform are a deployment error, refused at startup.
 */
@ApplicationScoped
public class OAuthProviders {
    private final Map<Platform, OAuthProvider> byPlatform = new EnumMap<>(Platform.class);

    public OAuthProviders(@Any Instance<OAuthProvider> providers) {
        for (Platform platform : Platform.values()) {
            List<OAuthProvider> serving = providers.stream()
                    .filter(provider -> provider.platform() == platform)
                    .toList();
            List<OAuthProvider> configured =
                    serving.stream().filter(OAuthProvider::configured).toList();
            if (configured.size() > 1) {
                throw new IllegalStateException(
                        "more than one OAuth provider is configured for " + platform.wireName());
            }
            (configured.isEmpty() ? serving.stream() : configured.stream())
                    .findFirst()
                    .ifPresent(provider -> byPlatform.put(platform, provider));
        }
    }

    public Optional<OAuthProvider> forPlatform(Platform platform) {
        return Optional.ofNullable(byPlatform.get(platform));
    }
}
