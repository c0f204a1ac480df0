package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** API keys of the demo workspace the local runtime seeds; set by {@code ./herald up}. */
@ConfigMapping(prefix = "herald.demo")
public interface DemoConfig {
    Optional<String> testKey();

    Optional<String> liveKey();
}
