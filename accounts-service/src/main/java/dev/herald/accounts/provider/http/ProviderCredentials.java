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
    public static ProviderCredentials require(
            Platform platform, Optional<String> clientId, Optional<String> clientSecret) {
        if (!present(clientId, clientSecret)) {
            String prefix = "herald.providers." + platform.wireName();
            throw new ProviderException(
                    "provider_not_configured",
                    platform.wireName() + " is not configured: set " + prefix + ".client-id and " + prefix
                            + ".client-secret",
                    false,
                    false);
        }
        return new ProviderCredentials(clientId.get(), clientSecret.get());
    }

    /** Whether both the client id and the secret are set (and not blank). */
    public static boolean present(Optional<String> clientId, Optional<String> clientSecret) {
        return clientId.filter(value -> !value.isBlank()).isPresent()
                && clientSecret.filter(value -> !value.isBlank()).isPresent();
    }

    @Override
    public String toString() {
        return "ProviderCredentials[clientId=" + clientId + "]";
    }
}
