package dev.herald.gateway.rest;

import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.gateway.client.ApiAnswer;
import dev.herald.gateway.client.ApiPage;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Posts of a workspace and mode, read through the public API: the list (newest first, filtered as {@code GET /posts}
 * filters), a post with every target's outcome, and cancelling a queued post after confirmation (owners only).
 */
@Path("/dashboard/w/{workspace}/{mode}/posts")
@Produces(MediaType.TEXT_HTML)
public class DashboardPostsResource {
    static final int PAGE_SIZE = 25;
    static final List<String> STATUSES =
            List.of(Post.QUEUED, Post.PUBLISHING, Post.PUBLISHED, Post.PARTIALLY_FAILED, Post.FAILED, Post.CANCELED);
    private static final Set<String> FILTER_FIELDS = Set.of("status", "platform", "profile_id");

    /** The list's filters as sent (the API's parameter names) and the API's messages by filter. */
    public record PostFilter(String status, String platform, String profileId, Map<String, String> errors) {
        Map<String, String> query() {
            Map<String, String> query = new LinkedHashMap<>();
            query.put("status", status);
            query.put("platform", platform);
            query.put("profile_id", profileId);
            return query;
        }
    }

    /** A target with its provider URL as a link, when it is one a browser may follow (http or https). */
    public record TargetRow(PostTarget target, String link) {
        static TargetRow of(PostTarget target) {
            String url = target.url();
            boolean web = url != null && (url.startsWith("https://") || url.startsWith("http://"));
            return new TargetRow(target, web ? url : null);
        }
    }

    @CheckedTemplate(basePath = "dashboard/posts")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller,
                String section,
                List<Post> posts,
                PostFilter filter,
                List<String> statuses,
                List<Platform> platforms,
                String nextHref);

        static native TemplateInstance detail(
                DashboardCaller caller,
                String section,
                Post post,
                List<TargetRow> targets,
                boolean cancelable,
                String notice);

        static native TemplateInstance cancel(DashboardCaller caller, String section, Post post);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;

    public DashboardPostsResource(DashboardAccess access, DashboardResponses responses, MemberApiClient api) {
        this.access = access;
        this.responses = responses;
        this.api = api;
    }

    @GET
    public Uni<Response> list(
            @BeanParam WorkspacePage requested,
            @QueryParam("status") String status,
            @QueryParam("platform") String platform,
            @QueryParam("profile_id") String profileId,
            @QueryParam("cursor") String cursor) {
        PostFilter filter = new PostFilter(blankless(status), blankless(platform), blankless(profileId), Map.of());
        return responses.respond(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    Map<String, String> query = filter.query();
                    query.put("limit", Integer.toString(PAGE_SIZE));
                    query.put("cursor", blankless(cursor));
                    return api.get(caller, "/posts", query).map(answer -> {
                        if (answer.status() == 400 || answer.status() == 422) {
                            // A filter the API refused: the page again, the API's message beside that filter.
                            PostFilter refused = new PostFilter(
                                    filter.status(),
                                    filter.platform(),
                                    filter.profileId(),
                                    answer.fieldErrors(FILTER_FIELDS));
                            return DashboardResponses.page(422, listPage(caller, List.of(), refused, null));
                        }
                        ApiPage<Post> page = api.page(answer, Post.class);
                        String next = null;
                        if (page.nextCursor() != null) {
                            Map<String, String> nextQuery = filter.query();
                            nextQuery.put("cursor", page.nextCursor());
                            next = caller.base() + "/posts" + MemberApiClient.queryString(nextQuery);
                        }
                        return DashboardResponses.page(200, listPage(caller, page.items(), filter, next));
                    });
                }));
    }

    @GET
    @Path("/{post}")
    public Uni<Response> detail(
            @BeanParam WorkspacePage requested,
            @PathParam("post") String postId,
            @QueryParam("canceled") String canceled) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> post(caller, postId)
                        .map(post -> Templates.detail(
                                caller,
                                "posts",
                                post,
                                post.targets().stream().map(TargetRow::of).toList(),
                                cancelable(caller, post),
                                canceled == null ? null : "The post was canceled."))));
    }

    @GET
    @Path("/{post}/cancel")
    public Uni<Response> confirmCancel(@BeanParam WorkspacePage requested, @PathParam("post") String postId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    caller.requireOwner("cancel posts.");
                    return post(caller, postId).map(post -> {
                        if (!Post.QUEUED.equals(post.status())) {
                            throw notCancelable(post);
                        }
                        return Templates.cancel(caller, "posts", post);
                    });
                }));
    }

    @POST
    @Path("/{post}/cancel")
    public Uni<Response> cancel(
            @BeanParam WorkspacePage requested, @PathParam("post") String postId, @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("cancel posts.");
                    if (!DashboardProfilesResource.ID.matcher(postId).matches()) {
                        throw DashboardRefusal.notFound();
                    }
                    // The API decides: a post that started publishing meanwhile is refused with its own message (409).
                    return api.send(caller, "DELETE", "/posts/" + postId, null)
                            .map(ApiAnswer::orRefuse)
                            .map(answer ->
                                    DashboardResponses.seeOther(caller.base() + "/posts/" + postId + "?canceled=true"));
                }));
    }

    private TemplateInstance listPage(DashboardCaller caller, List<Post> posts, PostFilter filter, String nextHref) {
        return Templates.list(caller, "posts", posts, filter, STATUSES, Arrays.asList(Platform.values()), nextHref);
    }

    private Uni<Post> post(DashboardCaller caller, String postId) {
        if (!DashboardProfilesResource.ID.matcher(postId).matches()) {
            return Uni.createFrom().failure(DashboardRefusal.notFound());
        }
        return api.read(caller, "/posts/" + postId, Post.class);
    }

    private static boolean cancelable(DashboardCaller caller, Post post) {
        return caller.role().isOwner() && Post.QUEUED.equals(post.status());
    }

    private static DashboardRefusal notCancelable(Post post) {
        return new DashboardRefusal(
                409, "Not done", "Only a queued post can be canceled; this one is " + post.status() + ".", Map.of());
    }

    private static String blankless(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
