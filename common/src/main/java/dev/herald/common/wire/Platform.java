package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The social platforms Herald publishes to, by their wire names. */
public enum Platform {
    TIKTOK("tiktok"),
    INSTAGRAM("instagram"),
    FACEBOOK("facebook"),
    YOUTUBE("youtube"),
    PINTEREST("pinterest"),
    LINKEDIN("linkedin");

    private final String wireName;

    Platform(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<Platform> fromWire(String value) {
        for (Platform platform : values()) {
            if (platform.wireName.equals(value)) {
                return Optional.of(platform);
            }
        }
        return Optional.empty();
    }
}
