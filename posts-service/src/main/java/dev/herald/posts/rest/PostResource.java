package dev.herald.posts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.QueryParameters;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostValidation;
import dev.herald.posts.repository.PostFilters;
import dev.herald.posts.service.MediaUrlGuard;
import dev.herald.posts.service.PostCancellation;
import dev.herald.posts.service.PostDraft;
import dev.herald.posts.service.PostReads;
import dev.herald.posts.service.PostService;
import dev.herald.posts.service.PostValidationService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /posts}: create or schedule a post (or try one: validate), read posts, cancel a queued one. */
@Cancellable(false)
@Path("/posts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class PostResource {
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotency-Replayed";
    static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;
    static final int MAX_FILTER_LENGTH = 200;
    static final Set<String> STATUSES =
            Set.of(Post.QUEUED, Post.PUBLISHING, Post.PUBLISHED, Post.PARTIALLY_FAILED, Post.FAILED, Post.CANCELED);
    private static final String PLATFORMS = String.join(
            ", ", Arrays.stream(Platform.values()).map(Platform::wireName).toList());

    private final PostService posts;
    private final PostReads reads;
    private final PostCancellation cancellation;
    private final Caller caller;
    private final MediaUrlGuard mediaUrls;
    private final PostValidationService validation;

    public PostResource(
            PostService posts,
            PostReads reads,
            PostCancellation cancellation,
            Caller caller,
            MediaUrlGuard mediaUrls,
            PostValidationService validation) {
        this.posts = posts;
        this.validation = validation;
        this.reads = reads;
        this.cancellation = cancellation;
        this.caller = caller;
        this.mediaUrls = mediaUrls;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode json, HttpHeaders headers) {
        String key = idempotencyKey(headers.getRequestHeader(IDEMPOTENCY_KEY));
        PostDraft read = PostRequestReader.read(json, mediaUrls.allowsPrivateUrls());
        // The media URL's host is resolved off the event loop; its problem joins the draft's others in one 422.
        return mediaUrls
                .vet(read)
                .flatMap(draft -> posts.create(caller.workspaceId(), caller.mode(), key, json, draft))
                .map(answer -> answer.replayed()
                        ? Response.ok(answer.replayedBody(), MediaType.APPLICATION_JSON_TYPE)
                                .header(REPLAYED, "true")
                                .build()
                        : Response.status(Response.Status.ACCEPTED)
                                .entity(DataEnvelope.of(answer.post()))
                                .build());
    }

    /**
     * {@code POST /posts/validate}: a dry run of {@code POST /posts} with the same body and no Idempotency-Key, as
     * nothing is created, reserved or held. The problems are the answer ({@code 200}); only a body that is not a JSON
     * object is refused ({@code 400}): there is no post to speak of.
     */
    @POST
    @Path("/validate")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<PostValidation>> validate(JsonNode json) {
        PostDraft read = PostRequestReader.read(json, mediaUrls.allowsPrivateUrls());
        return mediaUrls
                .vet(read)
                .flatMap(draft -> validation.validate(caller.workspaceId(), caller.mode(), draft))
                .map(DataEnvelope::of);
    }

    @GET
    @Paginated
    public Uni<ListEnvelope<Post>> list(
            @QueryParam("status") String status,
            @QueryParam("platform") String platform,
            @QueryParam("q") String q,
            @QueryParam("account_id") String accountId,
            @QueryParam("profile_id") String profileId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.invalidParameter(
                    "status",
                    "status must be one of "
                            + String.join(
                                    ", ",
                                    List.of(
                                            Post.QUEUED,
                                            Post.PUBLISHING,
                                            Post.PUBLISHED,
                                            Post.PARTIALLY_FAILED,
                                            Post.FAILED,
                                            Post.CANCELED))
                            + ".");
        }
        Platform platformFilter = platform == null
                ? null
                : Platform.fromWire(platform)
                        .orElseThrow(() -> ApiException.invalidParameter(
                                "platform", "platform must be one of " + PLATFORMS + "."));
        if (accountId != null && !IdPrefix.ACCOUNT.matches(accountId)) {
            throw ApiException.invalidParameter(
                    "account_id", "account_id must be an account id (acc_ and 24 hex characters).");
        }
        if (profileId != null && !IdPrefix.PROFILE.matches(profileId)) {
            throw ApiException.invalidParameter(
                    "profile_id", "profile_id must be a profile id (prf_ and 24 hex characters).");
        }
        String text = QueryParameters.boundedText("q", q, MAX_FILTER_LENGTH);
        return reads.list(
                caller.workspaceId(),
                caller.mode(),
                new PostFilters(status, platformFilter, text, accountId, profileId),
                limit,
                cursor);
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<Post>> get(@PathParam("id") String id) {
        return reads.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<Post>> cancel(@PathParam("id") String id) {
        return cancellation.cancel(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** DESIGN section 3: required, once, 1 to 255 printable ASCII characters. */
    static String idempotencyKey(List<String> values) {
        if (values == null || values.isEmpty()) {
            throw new ApiException(
                    ErrorCode.IDEMPOTENCY_KEY_REQUIRED,
                    "POST /posts needs an Idempotency-Key header: a unique value per post, reused only to retry it.");
        }
        if (values.size() > 1) {
            throw ApiException.invalidParameter(IDEMPOTENCY_KEY, "Send the Idempotency-Key header once.");
        }
        String key = values.get(0);
        if (key.isEmpty()
                || key.length() > MAX_IDEMPOTENCY_KEY_LENGTH
                || !key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            throw ApiException.invalidParameter(
                    IDEMPOTENCY_KEY, "Idempotency-Key must be 1 to 255 printable ASCII characters.");
        }
        return key;
    }
}
