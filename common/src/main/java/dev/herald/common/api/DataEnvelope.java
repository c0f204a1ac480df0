package dev.herald.common.api;

/** {@code { data: <resource> }}: the body of every single-resource success response. */
public record DataEnvelope<T>(T data) {
    public static <T> DataEnvelope<T> of(T data) {
        return new DataEnvelope<>(data);
    }
}
