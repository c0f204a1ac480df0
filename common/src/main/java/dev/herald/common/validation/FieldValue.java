package dev.herald.common.validation;

/**
 * A body field as sent: absent, explicitly null, or a value. PATCH needs all three apart: an omitted
 * field is preserved, {@code null} clears it.
 */
public record FieldValue<T>(State state, T value) {
    public enum State {
        ABSENT,
        NULL,
        PRESENT
    }

    public static <T> FieldValue<T> absent() {
        return new FieldValue<>(State.ABSENT, null);
    }

    public static <T> FieldValue<T> explicitNull() {
        return new FieldValue<>(State.NULL, null);
    }

    public static <T> FieldValue<T> of(T value) {
        return new FieldValue<>(State.PRESENT, value);
    }

    public boolean isAbsent() {
        return state == State.ABSENT;
    }

    /** Sent at all, as null or as a value. */
    public boolean isSent() {
        return state != State.ABSENT;
    }

    /** The value, or null when absent or null. */
    public T orNull() {
        return value;
    }
}
