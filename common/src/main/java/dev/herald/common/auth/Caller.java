package dev.herald.common.auth;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import jakarta.enterprise.context.RequestScoped;

/** The verified caller of the current request: the workspace and mode every query is scoped by. */
@RequestScoped
public class Caller {
    private InternalToken token;

    void authenticate(InternalToken token) {
        this.token = token;
    }

    public InternalToken token() {
        if (token == null) {
            throw new ApiException(ErrorCode.AUTHENTICATION_FAILED, "No valid credential was provided.");
        }
        return token;
    }

    public String workspaceId() {
        return token().workspaceId();
    }

    public Mode mode() {
        return token().mode();
    }
}
