package dev.herald.common.validation;

import dev.herald.common.api.ApiException;

/** Checks on list filters sent in the query string; a bad value is {@code 400 invalid_request}. */
public final class QueryParameters {
    private QueryParameters() {}

    /** The filter value, or null when not sent; longer than {@code maxLength} characters is refused. */
    public static String boundedText(String name, String value, int maxLength) {
        if (value == null) {
            return null;
        }
        if (value.codePointCount(0, value.length()) > maxLength) {
            throw ApiException.invalidParameter(name, name + " must be at most " + maxLength + " characters.");
        }
        return value;
    }
}
