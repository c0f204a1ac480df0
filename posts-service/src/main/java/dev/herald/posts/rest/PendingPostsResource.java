package dev.herald.posts.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.posts.service.PostReads;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code GET /internal/accounts/{id}/pending-posts}: how many of the caller's posts that are not final target
 * the account (accounts-service refuses to reassign an account while there are any, and never on a guess: a failed
 * count refuses the change).
 */
@Cancellable(false)
@Path("/internal/accounts/{id}/pending-posts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class PendingPostsResource {
    private final PostReads posts;
    private final Caller caller;

    public PendingPostsResource(PostReads posts, Caller caller) {
        this.posts = posts;
        this.caller = caller;
    }

    @GET
    public Uni<DataEnvelope<Map<String, Object>>> pendingPosts(@PathParam("id") String accountId) {
        return posts.pendingForAccount(caller.workspaceId(), caller.mode(), accountId)
                .map(count -> {
                    Map<String, Object> answer = new LinkedHashMap<>();
                    answer.put("account_id", accountId);
                    answer.put("pending_posts", count);
                    return DataEnvelope.of(answer);
                });
    }
}
