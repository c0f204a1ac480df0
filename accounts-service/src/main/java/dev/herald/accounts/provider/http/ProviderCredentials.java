package dev.herald.accounts.provider.http;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.common.wire.Platform;
import java.util.Optional;

/** A platform's OAuth client id and secret. {@code toString} hides the secret. */
public record ProviderCredentials(String clientId, String clientSecret) {
    /**
     * The configured client, or a {@code provider_not_configured} refusal naming the settings to set: a platform
     * without credentials is not offered live, and that must not stop the service from starting.
     */
    public static ProviderCredentials require(Platform platform, Optional<String> clientId, Optional<String> clientSecret) {
        String id = clientId.filter(value -> !value.isBlank()).orElse(null);
        String secret = clientSecret.filter(value -> !value.isBlank()).orElse(null);
        if (id == null || secret == null) {
            String prefix = "herald.providers." + platform.wireName();
            throw new ProviderException("provider_not_configured", platform.wireName() + " is not configured: set "
                    + prefix + ".client-id and " + prefix + ".client-secret", false, false);
        }
        return new ProviderCredentials(id, secret);
    }

    @Override
    public String toString() {
        return "ProviderCredentials[clientId=" + clientId + "]";
    }
}
