package dev.herald.accounts.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.Mode;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Refuses a live key on a {@link TestKeysOnly} operation with {@code 403 test_mode_only} once the
 * caller is known and before the body is read: a live key learns nothing about a body it had no business sending.
 */
@Provider
@TestKeysOnly
@Priority(Priorities.AUTHORIZATION)
public class TestKeysOnlyFilter implements ContainerRequestFilter {
    private final Caller caller;

    public TestKeysOnlyFilter(Caller caller) {
        this.caller = caller;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (caller.mode() != Mode.TEST) {
            throw new ApiException(ErrorCode.TEST_MODE_ONLY, "Sandbox accounts can be created with a test key only.");
        }
    }
}
