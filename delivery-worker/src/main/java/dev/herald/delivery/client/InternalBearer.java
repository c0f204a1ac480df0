package dev.herald.delivery.client;

import dev.herald.common.auth.InternalToken;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * The {@code authorization} header of the worker's calls to other services: an internal JWT for the workspace
 * and mode of the delivery the call is about (the callee scopes everything by them), without scopes.
 */
@ApplicationScoped
public class InternalBearer {
    static final String CALLER = "delivery-worker";

    private final InternalTokens tokens;

    public InternalBearer(InternalTokens tokens) {
        this.tokens = tokens;
    }

    public String of(String workspaceId, Mode mode) {
        return "Bearer " + tokens.issuer().issue(new InternalToken(workspaceId, mode, CALLER, Set.of()));
    }
}
