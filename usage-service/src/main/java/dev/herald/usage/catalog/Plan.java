package dev.herald.usage.catalog;

import java.util.Optional;

/** The plans of the catalog, cheapest first: a higher {@link #ordinal()} is an upgrade. */
public enum Plan {
    FREE("free"),
    STARTER("starter"),
    GROWTH("growth"),
    SCALE("scale");

    private final String wireName;

    Plan(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isAbove(Plan other) {
        return ordinal() > other.ordinal();
    }

    public static Optional<Plan> fromWire(String value) {
        for (Plan plan : values()) {
            if (plan.wireName.equals(value)) {
                return Optional.of(plan);
            }
        }
        return Optional.empty();
    }
}
