package dev.herald.posts.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.posts.service.AccountFences;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * accounts-service's pending-posts check before it moves an account (decision 224): {@code POST
 * /internal/accounts/{id}/fences} fences the account and answers how many of the caller's posts that are not final
 * target it ({@code fence_id, account_id, pending_posts, expires_at}); {@code DELETE .../fences/{fenceId}} lifts the
 * fence (204, again is a no-op). accounts-service refuses the move while posts are pending, and never on a guess.
 */
@Cancellable(false)
@Path("/internal/accounts/{id}/fences")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class AccountFenceResource {
    private final AccountFences fences;
    private final Caller caller;

    public AccountFenceResource(AccountFences fences, Caller caller) {
        this.fences = fences;
        this.caller = caller;
    }

    @POST
    public Uni<DataEnvelope<Map<String, Object>>> fence(@PathParam("id") String accountId) {
        return fences.fence(caller.workspaceId(), caller.mode(), accountId).map(fence -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("fence_id", fence.id());
            answer.put("account_id", fence.accountId());
            answer.put("pending_posts", fence.pendingPosts());
            answer.put("expires_at", fence.expiresAt().toString());
            return DataEnvelope.of(answer);
        });
    }

    @DELETE
    @Path("/{fenceId}")
    public Uni<Void> lift(@PathParam("id") String accountId, @PathParam("fenceId") String fenceId) {
        return fences.lift(caller.workspaceId(), caller.mode(), accountId, fenceId);
    }
}
