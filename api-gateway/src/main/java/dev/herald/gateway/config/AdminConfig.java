package dev.herald.gateway.config;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** The admin API's bearer token (the dashboard back end). Without one, the admin API refuses everything. */
@ConfigMapping(prefix = "herald.admin")
public interface AdminConfig {
    Optional<String> token();
}
