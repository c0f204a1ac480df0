package dev.herald.common.rest;

import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import java.util.regex.Pattern;

/** The request id every response carries in {@code x-request-id} and every error body in {@code request_id}. */
public final class RequestIds {
    public static final String HEADER = "x-request-id";
    /** What we accept from an upstream caller; anything else is replaced, so logs never carry injected text. */
    private static final Pattern ACCEPTED = Pattern.compile("^[A-Za-z0-9_.-]{1,128}$");

    private RequestIds() {}

    public static String newRequestId() {
        return ResourceIds.newId(IdPrefix.REQUEST);
    }

    /** The given id if it is a well-formed one, else a new one. */
    public static String adoptOrCreate(String given) {
        return given != null && ACCEPTED.matcher(given).matches() ? given : newRequestId();
    }
}
