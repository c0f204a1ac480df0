package dev.herald.common.auth;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Test or live: every key, row and query belongs to exactly one. */
public enum Mode {
    TEST("test"),
    LIVE("live");

    private final String wireName;

    Mode(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<Mode> fromWire(String value) {
        for (Mode mode : values()) {
            if (mode.wireName.equals(value)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
