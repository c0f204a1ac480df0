package dev.herald.usage.catalog;

import java.util.Optional;

/**
 * Why a workspace is on its plan. Only a paid {@code subscription} (in live mode) renews monthly from
 * the moment it started; every other source, and all of test mode, resets on calendar months (UTC).
 */
public enum PlanSource {
    SUBSCRIPTION("subscription"),
    COMP("comp"),
    BETA("beta"),
    FREE("free");

    private final String wireName;

    PlanSource(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<PlanSource> fromWire(String value) {
        for (PlanSource source : values()) {
            if (source.wireName.equals(value)) {
                return Optional.of(source);
            }
        }
        return Optional.empty();
    }
}
