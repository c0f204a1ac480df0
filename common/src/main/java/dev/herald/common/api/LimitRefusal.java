package dev.herald.common.api;

import java.util.Set;

/**
 * The spec's limit errors (section 7: {@code usage_limit_exceeded}, {@code rate_limit_exceeded},
 * {@code account_limit_reached}, {@code account_capacity_exceeded}), which charge nothing: not even the API request
 * that met them. A service marks such an answer with {@link #HEADER} so the gateway gives the request's unit back;
 * the gateway drops the header, customers never see it. A 429 needs no mark, but a 409 cannot be told from a
 * {@code 409 conflict} that does count by its status alone.
 */
public final class LimitRefusal {
    public static final String HEADER = "x-herald-limit-refusal";

    private static final Set<ErrorCode> LIMITS = Set.of(
            ErrorCode.USAGE_LIMIT_EXCEEDED,
            ErrorCode.RATE_LIMIT_EXCEEDED,
            ErrorCode.ACCOUNT_LIMIT_REACHED,
            ErrorCode.ACCOUNT_CAPACITY_EXCEEDED);

    private LimitRefusal() {}

    public static boolean is(ErrorCode code) {
        return LIMITS.contains(code);
    }
}
