package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Instagram's comment moderation edges: {@code GET} and {@code POST /{ig-media-id}/comments} and {@code /{ig-comment-
 * id}/replies} on the media the fake published, and the comments' ids and threads.
 */
final class InstagramComments {
    /** Reading and replying to comments both take it (Instagram API with Instagram Login, comment moderation). */
    private static final String MANAGE_COMMENTS = "instagram_business_manage_comments";
    /** What a comment listing answers without {@code fields}, and {@code replies} without braces. */
    private static final List<GraphFields> COMMENT_DEFAULT_FIELDS = GraphFields.parse("timestamp,text,id");

    private static final Set<String> COMMENT_FIELDS = Set.of(
            "id", "text", "username", "timestamp", "like_count", "hidden", "from", "media", "parent_id", "replies");
    private final InstagramFake fake;

    InstagramComments(InstagramFake fake) {
        this.fake = fake;
    }

    /**
     * {@code GET /{media}/comments}: the media's top-level comments, newest first; {@code GET /{comment}/replies}: a
     * top-level comment's replies, oldest first. {@code limit} (25, at most 100) and {@code after} page through them
     * ({@code paging.cursors}, {@code paging.next}). Fields: {@code id}, {@code text}, {@code username},
     * {@code timestamp}, {@code like_count}, {@code hidden}, {@code from}, {@code media}, {@code parent_id} (replies)
     * and {@code replies} (an edge, {@code {"data": [...]}} oldest first, its fields in braces); another is Graph's #100.
     * The comments are the media's {@link SeededComments} (by their Instagram usernames) and those the account posted.
     * Media or a comment the account does not have is Graph's "does not exist".
     */
    FakeResponse listComments(FakeRequest request, IssuedGrant grant, String id, String edge) {
        if (!grant.scopes().contains(MANAGE_COMMENTS)) {
            return fake.missingPermission(MANAGE_COMMENTS);
        }
        JsonNode media = "comments".equals(edge) ? publishedMedia(id, grant) : null;
        FakeComment comment = "replies".equals(edge) ? findComment(id, grant) : null;
        if (media == null && comment == null) {
            return doesNotExist("get", id, edge);
        }
        List<FakeComment> all = comments(media != null ? media : publishedMedia(comment.itemId(), grant));
        List<FakeComment> listed;
        if (media != null) {
            listed = new ArrayList<>(all.stream().filter(FakeComment::topLevel).toList());
            Collections.reverse(listed);
        } else {
            listed = StatefulPlatformFake.repliesTo(all, comment.topLevel() ? comment.id() : "");
        }
        String fields = fake.parameter(request, "fields");
        List<GraphFields> wanted = fields == null ? COMMENT_DEFAULT_FIELDS : GraphFields.parse(fields);
        String unknown = GraphFields.firstUnknown(wanted, COMMENT_FIELDS, "replies");
        if (unknown != null) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) Tried accessing nonexisting field (" + unknown + ") on node type (IGComment)",
                            false));
        }
        return fake.graphCommentPage(
                request, fake.parameter(request, "after"), listed, each -> shownComment(each, wanted, all));
    }

    private ObjectNode shownComment(FakeComment comment, List<GraphFields> fields, List<FakeComment> all) {
        ObjectNode shown = fake.object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id" -> shown.put("id", comment.id());
                case "text" -> shown.put("text", comment.text());
                case "username" -> shown.put("username", comment.authorName());
                case "timestamp" ->
                    shown.put(
                            "timestamp",
                            comment.createdAt().atOffset(ZoneOffset.UTC).format(InstagramFake.GRAPH_TIME));
                case "like_count" -> shown.put("like_count", 0);
                case "hidden" -> shown.put("hidden", false);
                case "from" ->
                    shown.putObject("from").put("id", comment.authorId()).put("username", comment.authorName());
                case "media" -> shown.putObject("media").put("id", comment.itemId());
                case "parent_id" -> {
                    if (!comment.topLevel()) {
                        shown.put("parent_id", comment.parentId());
                    }
                }
                default -> {
                    // replies: an edge of top-level comments only, present when there are some
                    List<FakeComment> replies = StatefulPlatformFake.repliesTo(all, comment.id());
                    if (comment.topLevel() && !replies.isEmpty()) {
                        ArrayNode data = shown.putObject("replies").putArray("data");
                        List<GraphFields> asked =
                                field.subfields() == null ? COMMENT_DEFAULT_FIELDS : field.subfields();
                        replies.forEach(reply -> data.add(shownComment(reply, asked, all)));
                    }
                }
            }
        }
        return shown;
    }

    /**
     * {@code POST /{media}/comments} (a top-level comment) or {@code POST /{comment}/replies} (a reply; to a reply, it
     * joins the top-level comment, as Instagram documents), {@code message} in the query (or form, or JSON), as the
     * account. Answers {@code {"id"}}; the comment shows in later reads.
     */
    FakeResponse createComment(FakeRequest request, IssuedGrant grant, String id, String edge) {
        if (!grant.scopes().contains(MANAGE_COMMENTS)) {
            return fake.missingPermission(MANAGE_COMMENTS);
        }
        JsonNode media = "comments".equals(edge) ? publishedMedia(id, grant) : null;
        FakeComment comment = "replies".equals(edge) ? findComment(id, grant) : null;
        if (media == null && comment == null) {
            return doesNotExist("post", id, edge);
        }
        String message = fake.parameter(request, "message");
        if (message == null || message.isBlank()) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) The parameter message is required.",
                            false));
        }
        String itemId = media != null ? media.path("id").asText() : comment.itemId();
        String parentId = comment == null ? null : comment.topLevel() ? comment.id() : comment.parentId();
        FakeComment created = fake.keepComment(new FakeComment(
                "18" + FakeIds.digits(15),
                itemId,
                parentId,
                message,
                InstagramFake.USER_ID,
                InstagramFake.USERNAME,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return fake.json(200, fake.object().put("id", created.id()));
    }

    /**
     * Media the account published, or null (another account's token sees none). Comments' ids are 17 digits starting
     * {@code 18}, as Instagram's are; seeded ones are dated at the media's publication.
     */
    private JsonNode publishedMedia(String id, IssuedGrant grant) {
        if (!InstagramFake.USER_ID.equals(grant.subject())) {
            return null;
        }
        return fake.published().stream()
                .filter(media -> id.equals(media.path("id").asText()))
                .findFirst()
                .orElse(null);
    }

    private List<FakeComment> comments(JsonNode media) {
        String mediaId = media.path("id").asText();
        Instant publishedAt = OffsetDateTime.parse(media.path("timestamp").asText(), InstagramFake.GRAPH_TIME)
                .toInstant();
        return fake.commentsOn(
                mediaId,
                publishedAt,
                index -> seededCommentId(mediaId, index),
                SeededComments.Commenter::instagramId,
                SeededComments.Commenter::instagramUsername);
    }

    private FakeComment findComment(String id, IssuedGrant grant) {
        if (!InstagramFake.USER_ID.equals(grant.subject())) {
            return null;
        }
        for (JsonNode media : fake.published()) {
            for (FakeComment comment : comments(media)) {
                if (comment.id().equals(id)) {
                    return comment;
                }
            }
        }
        return null;
    }

    private static String seededCommentId(String mediaId, int index) {
        return "18" + SeededComments.digits(mediaId, index, 15);
    }

    /** Graph's answer for an id that names nothing this edge belongs to. */
    private FakeResponse doesNotExist(String method, String id, String edge) {
        return fake.json(
                400,
                GraphErrorShapes.error(
                        fake.object(),
                        "GraphMethodException",
                        100,
                        33,
                        "Unsupported " + method
                                + " request. Object with ID '" + id
                                + "' does not exist, cannot be loaded due to missing permissions, or does"
                                + " not support this operation (" + edge + ")",
                        false));
    }
}
