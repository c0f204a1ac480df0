package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.wire.Post;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.PostFilters;
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostTargetRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Reads of posts with their targets: one post and a filtered page of them. */
@ApplicationScoped
public class PostReads {
    static final String CURSOR_KIND = "posts";

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final PostViews views;
    private final CursorCodec cursors;

    public PostReads(PostRepository posts, PostTargetRepository targets, PostViews views, CursorCodec cursors) {
        this.posts = posts;
        this.targets = targets;
        this.views = views;
        this.cursors = cursors;
    }

    @WithSession
    public Uni<Post> get(String workspaceId, Mode mode, String id) {
        return posts.findInTenant(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("post"))
                .flatMap(post -> targets.forPost(post.id).map(rows -> views.toWire(post, rows)));
    }

    @WithSession
    public Uni<ListEnvelope<Post>> list(
            String workspaceId, Mode mode, PostFilters filters, String limit, String cursor) {
        Map<String, String> scopeFilters = new LinkedHashMap<>();
        scopeFilters.put("status", filters.status());
        scopeFilters.put(
                "platform",
                filters.platform() == null ? null : filters.platform().wireName());
        scopeFilters.put("q", filters.text() == null || filters.text().isEmpty() ? null : filters.text());
        scopeFilters.put("account_id", filters.accountId());
        scopeFilters.put("profile_id", filters.profileId());
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, scopeFilters);
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        return posts.listPage(workspaceId, mode, filters, page.after(), page.fetchSize())
                .flatMap(rows -> targets.forPosts(
                                rows.stream().map(row -> row.id).toList())
                        .map(all -> {
                            Map<String, List<PostTargetEntity>> byPost = all.stream()
                                    .collect(Collectors.groupingBy(
                                            target -> target.postId, LinkedHashMap::new, Collectors.toList()));
                            return Page.of(
                                    rows,
                                    page,
                                    row -> new CursorPosition(row.createdAt, row.id),
                                    row -> views.toWire(row, byPost.getOrDefault(row.id, List.of())),
                                    scope,
                                    cursors);
                        }));
    }
}
