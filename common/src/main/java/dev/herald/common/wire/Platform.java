package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The social platforms Herald publishes to, by their wire names. */
public enum Platform {
    TIKTOK("tiktok", "TikTok"),
    INSTAGRAM("instagram", "Instagram"),
    FACEBOOK("facebook", "Facebook"),
    YOUTUBE("youtube", "YouTube"),
    PINTEREST("pinterest", "Pinterest"),
    LINKEDIN("linkedin", "LinkedIn");

    private final String wireName;
    private final String displayName;

    Platform(String wireName, String displayName) {
        this.wireName = wireName;
        this.displayName = displayName;
    }

    /** The platform's own spelling of its name, for people (hosted pages, sandbox account names). */
    public String displayName() {
        return displayName;
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
