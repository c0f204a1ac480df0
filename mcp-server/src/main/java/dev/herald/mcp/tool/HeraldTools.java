package dev.herald.mcp.tool;

import dev.herald.mcp.client.GatewayClient;
import dev.herald.mcp.client.GatewayRequest;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.Tool.Annotations;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/**
 * The tools an agent sees (docs/mcp.md). Each makes one request of the public API with the caller's own credential
 * ({@link GatewayClient}), so a tool can do exactly what the caller's key can, no more. The descriptions are what a
 * model reads to pick a tool and fill its arguments: they say when to use it, what it answers, and what to call first.
 */
@ApplicationScoped
public class HeraldTools {
    private static final String PAGING = " Answers one page: `data` and, when there is more, `has_more: true` and a"
            + " `next_cursor` to pass as `cursor` for the next page.";
    private static final String POST_FIELDS_TEXT =
            "The caption. Each platform's own limit applies (TikTok and Instagram"
                    + " 2200, Pinterest 500, LinkedIn 3000, Facebook and YouTube 5000). May be empty only when there is media.";
    private static final String POST_FIELDS_ACCOUNTS =
            "Ids (acc_...) of the connected accounts to publish to, 1 to 100; from list_accounts. The post goes to"
                    + " each account's platform.";
    private static final String POST_FIELDS_MEDIA =
            "Media, in order: objects {url, type} with an https url the platform can fetch and type 'image',"
                    + " 'video' or 'document' (a PDF, LinkedIn only). Omit for a text post.";
    private static final String POST_FIELDS_SCHEDULE = "When to publish: RFC 3339 with seconds and an offset"
            + " (2026-12-01T09:00:00Z), 5 seconds to 1 year ahead, or 'next_slot' for the profile's next posting-queue"
            + " slot. Omit to publish now.";
    private static final String POST_FIELDS_OPTIONS = "Per-platform options keyed by platform, e.g. {\"youtube\":"
            + " {\"privacy_status\": \"public\", \"made_for_kids\": false, \"title\": \"...\"}, \"tiktok\":"
            + " {\"privacy_level\": \"PUBLIC_TO_EVERYONE\"}, \"pinterest\": {\"board_id\": \"...\"}}. YouTube needs"
            + " privacy_status and made_for_kids, TikTok privacy_level, Pinterest board_id.";
    private static final String POST_FIELDS_FIRST_COMMENT = "Text of a comment Herald posts under the post right after"
            + " it is published (Facebook, Instagram, YouTube, LinkedIn).";

    private final GatewayClient gateway;
    private final CurrentVertxRequest currentRequest;

    HeraldTools(GatewayClient gateway, CurrentVertxRequest currentRequest) {
        this.gateway = gateway;
        this.currentRequest = currentRequest;
    }

    @Tool(
            name = "list_profiles",
            description = "List the profiles of the workspace (a profile groups one brand's or one end user's social"
                    + " accounts). Use it to find a profile_id for list_accounts." + PAGING,
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> listProfiles(
            @ToolArg(description = "Search in the profile's name and external_id.", required = false) String q,
            @ToolArg(description = "Page size, 1 to 100 (default 50).", required = false) Integer limit,
            @ToolArg(description = "next_cursor of the previous page.", required = false) String cursor) {
        return call(ToolRequests.listProfiles(q, limit, cursor));
    }

    @Tool(
            name = "list_accounts",
            description = "List the connected social accounts (id acc_..., platform, profile_id, name, username) with"
                    + " their connection health: `health.status` is healthy, expiring (renew before token_expires_at),"
                    + " reauth_required (the owner must reconnect it; posts to it are refused) or disconnected. Call it"
                    + " before create_post to get account ids and to check that they can publish." + PAGING,
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> listAccounts(
            @ToolArg(description = "Only this profile's accounts (prf_...).", required = false) String profile_id,
            @ToolArg(
                            description = "Only this platform: tiktok, instagram, facebook, youtube, linkedin or"
                                    + " pinterest.",
                            required = false)
                    String platform,
            @ToolArg(
                            description = "Only accounts of this health: healthy, expiring, reauth_required or"
                                    + " disconnected.",
                            required = false)
                    String health,
            @ToolArg(description = "Page size, 1 to 100 (default 50).", required = false) Integer limit,
            @ToolArg(description = "next_cursor of the previous page.", required = false) String cursor) {
        return call(ToolRequests.listAccounts(profile_id, platform, health, limit, cursor));
    }

    @Tool(
            name = "validate_post",
            description = "Check a post without creating it: the same rules as create_post (caption limits, media"
                    + " per platform, platform options, the accounts' health), and the media fetched to check sizes,"
                    + " durations and dimensions. Answers {valid, problems, targets: [{account_id, platform,"
                    + " problems}]}. Use it to fix a post before create_post; it never publishes anything.",
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> validatePost(
            @ToolArg(description = POST_FIELDS_TEXT) String text,
            @ToolArg(description = POST_FIELDS_ACCOUNTS) List<String> account_ids,
            @ToolArg(description = POST_FIELDS_MEDIA, required = false) List<MediaItem> media,
            @ToolArg(description = POST_FIELDS_SCHEDULE, required = false) String scheduled_at,
            @ToolArg(description = POST_FIELDS_OPTIONS, required = false) Map<String, Object> platform_options,
            @ToolArg(description = POST_FIELDS_FIRST_COMMENT, required = false) String first_comment) {
        return call(ToolRequests.validatePost(
                new PostDraft(text, account_ids, media, scheduled_at, platform_options, first_comment)));
    }

    @Tool(
            name = "create_post",
            description = "Publish a post now, or schedule it with scheduled_at, to one or more connected accounts."
                    + " Answers the post (id pst_..., status queued, one target per account); publishing happens in"
                    + " the background: follow it with get_post. A refused post comes back as an error with every"
                    + " failing field in details. Each call creates a new post unless idempotency_key repeats an"
                    + " earlier call's (the result shows the key used): reuse it to retry safely after a failure.",
            annotations = @Annotations(readOnlyHint = false, destructiveHint = false, idempotentHint = false))
    public Uni<ToolResponse> createPost(
            @ToolArg(description = POST_FIELDS_TEXT) String text,
            @ToolArg(description = POST_FIELDS_ACCOUNTS) List<String> account_ids,
            @ToolArg(description = POST_FIELDS_MEDIA, required = false) List<MediaItem> media,
            @ToolArg(description = POST_FIELDS_SCHEDULE, required = false) String scheduled_at,
            @ToolArg(description = POST_FIELDS_OPTIONS, required = false) Map<String, Object> platform_options,
            @ToolArg(description = POST_FIELDS_FIRST_COMMENT, required = false) String first_comment,
            @ToolArg(
                            description = "Idempotency-Key of the request, 1 to 255 printable characters. Omit on a"
                                    + " first try (one is generated); pass the key of a call whose outcome is unknown"
                                    + " to retry it without posting twice.",
                            required = false)
                    String idempotency_key) {
        return call(ToolRequests.createPost(
                new PostDraft(text, account_ids, media, scheduled_at, platform_options, first_comment),
                idempotency_key));
    }

    @Tool(
            name = "get_post",
            description = "Get a post and where it stands: its status (queued, publishing, published,"
                    + " partially_failed, failed, canceled) and one target per account with its own status, the"
                    + " published url and provider_post_id, or an error {code, category, action, message,"
                    + " retryable}.",
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> getPost(@ToolArg(description = "The post's id (pst_...).") String post_id) {
        return call(ToolRequests.getPost(post_id));
    }

    @Tool(
            name = "list_comments",
            description = "List the comments on published posts, newest first, each with its id (for"
                    + " reply_to_comment), text, author and platform. Filter by post or account." + PAGING,
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> listComments(
            @ToolArg(description = "Only comments on this post (pst_...).", required = false) String post_id,
            @ToolArg(description = "Only comments on this account's posts (acc_...).", required = false)
                    String account_id,
            @ToolArg(description = "Page size, 1 to 100 (default 50).", required = false) Integer limit,
            @ToolArg(description = "next_cursor of the previous page.", required = false) String cursor) {
        return call(ToolRequests.listComments(post_id, account_id, limit, cursor));
    }

    @Tool(
            name = "reply_to_comment",
            description = "Reply publicly to a comment (from list_comments) as the account the post was published"
                    + " from. The reply is posted on the platform at once.",
            annotations = @Annotations(readOnlyHint = false, destructiveHint = false, idempotentHint = false))
    public Uni<ToolResponse> replyToComment(
            @ToolArg(description = "The comment's id, from list_comments.") String comment_id,
            @ToolArg(
                            description = "The reply, 1 to 10000 characters; the platform's own limit applies"
                                    + " (TikTok 150, LinkedIn 1250, Instagram 2200, Facebook 8000).")
                    String text) {
        return call(ToolRequests.replyToComment(comment_id, text));
    }

    @Tool(
            name = "get_usage",
            description = "Read the workspace's plan and this month's usage against its limits: publications, API"
                    + " requests and connected accounts, and the rate limit. Check it before posting in bulk.",
            annotations = @Annotations(readOnlyHint = true, destructiveHint = false, idempotentHint = true))
    public Uni<ToolResponse> getUsage() {
        return call(ToolRequests.getUsage());
    }

    private Uni<ToolResponse> call(GatewayRequest request) {
        return gateway.send(authorization(), request)
                .map(answer -> ToolResults.of(request, answer))
                .onFailure()
                .recoverWithItem(failure -> ToolResults.unreachable(request, failure));
    }

    /** The caller's header as the gateway passed it on (it authenticated it already, and will again per tool call). */
    private String authorization() {
        RoutingContext rc = currentRequest.getCurrent();
        return rc == null ? null : rc.request().getHeader("Authorization");
    }
}
