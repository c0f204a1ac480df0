package dev.herald.common.api;

/** One failing body field of a {@code 422 validation_failed}: {@code { field, code, message }}. */
public record FieldError(String field, String code, String message) {}
