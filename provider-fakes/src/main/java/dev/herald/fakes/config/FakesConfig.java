package dev.herald.fakes.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/** The fake platforms' settings ({@code herald.fakes.*}). */
@ConfigMapping(prefix = "herald.fakes")
public interface FakesConfig {

    /** The OAuth client each platform accepts, by platform name ({@code linkedin}, {@code youtube}, ...). */
    Map<String, Client> clients();

    /** Requests kept per platform; older ones are dropped first, so a long local session cannot exhaust memory. */
    @WithDefault("1000")
    int journalCapacity();

    interface Client {
        String clientId();

        String clientSecret();
    }
}
