package dev.herald.posts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.Comment;
import dev.herald.posts.service.CommentService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /comments}: comments on published posts, and replies to them. */
@Cancellable(false)
@Path("/comments")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class CommentResource {
    static final int MAX_REPLY_LENGTH = 10000;
    private static final Pattern COMMENT_ID = Pattern.compile("^cmt_[a-f0-9]{24}$");

    private final CommentService comments;
    private final Caller caller;

    public CommentResource(CommentService comments, Caller caller) {
        this.comments = comments;
        this.caller = caller;
    }

    /** {@code post_id} or {@code account_id} (or both) is required. */
    @GET
    @Paginated
    public Uni<ListEnvelope<Comment>> list(
            @QueryParam("post_id") String postId,
            @QueryParam("account_id") String accountId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        if (postId == null && accountId == null) {
            throw ApiException.invalidParameter(
                    "post_id", "Give post_id or account_id: the comments of which post or account.");
        }
        if (postId != null && !IdPrefix.POST.matches(postId)) {
            throw ApiException.invalidParameter("post_id", "post_id must be a post id (pst_ and 24 hex characters).");
        }
        if (accountId != null && !IdPrefix.ACCOUNT.matches(accountId)) {
            throw ApiException.invalidParameter(
                    "account_id", "account_id must be an account id (acc_ and 24 hex characters).");
        }
        return comments.list(caller.workspaceId(), caller.mode(), postId, accountId, limit, cursor);
    }

    /** Body {@code {"comment_id", "text"}}: a reply to that comment, as its account. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> reply(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("comment_id", "text"));
        String commentId = body.string("comment_id")
                .required()
                .matching(COMMENT_ID, "a comment id (cmt_ and 24 hex characters)")
                .read()
                .orNull();
        String text = body.string("text")
                .required()
                .trimmed()
                .length(1, MAX_REPLY_LENGTH)
                .read()
                .orNull();
        // Not validated here: what the comment's lookup finds wrong is reported with these, in one 422.
        return comments.reply(caller.workspaceId(), caller.mode(), commentId, text, body.errors())
                .map(reply -> Response.status(Response.Status.CREATED)
                        .entity(DataEnvelope.of(reply))
                        .build());
    }
}
