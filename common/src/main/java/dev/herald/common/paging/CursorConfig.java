package dev.herald.common.paging;

import io.smallrye.config.ConfigMapping;

/** The secret cursors are signed with; every replica of a service must share it. */
@ConfigMapping(prefix = "herald.cursor")
public interface CursorConfig {
    /** At least 16 bytes of secret text. */
    java.util.Optional<String> secret();
}
