package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Facebook's comment edges: {@code GET} and {@code POST /{object}/comments} on what the Page published, and the
 * comments' ids and threads.
 */
final class FacebookComments {
    /** What a comment edge answers without {@code fields}, and what {@code parent} shows without braces. */
    private static final List<GraphFields> COMMENT_DEFAULT_FIELDS = GraphFields.parse("created_time,from,message,id");

    private static final Set<String> COMMENT_FIELDS = Set.of(
            "id",
            "message",
            "from",
            "created_time",
            "parent",
            "comment_count",
            "like_count",
            "is_hidden",
            "can_comment");

    private final FacebookGraphFake fake;

    FacebookComments(FacebookGraphFake fake) {
        this.fake = fake;
    }

    /**
     * {@code GET /{object}/comments}: of a published post (its id, or a photo's {@code photo_id}) or video, its top-level
     * comments, or with {@code filter=stream} all of them, replies included; of a comment, its replies. {@code order}
     * {@code chronological} (the default) or {@code reverse_chronological}; {@code limit} (25, at most 100) and
     * {@code after} page through them, with Graph's {@code paging.cursors} and {@code paging.next}. The fields asked
     * for ({@code id}, {@code message}, {@code from}, {@code created_time}, {@code parent} with subfields in braces,
     * {@code comment_count}, {@code like_count}, {@code is_hidden}, {@code can_comment}); another is Graph's #100. The
     * comments are the item's {@link SeededComments} (from Graph ids and names of other people) and those posted as the
     * Page. Reading a Page's comments takes a Page token (#210 otherwise).
     */
    FakeResponse listComments(FakeRequest request, IssuedGrant grant, String id) {
        if (!FacebookGraphFake.PAGE_ID.equals(grant.subject())) {
            return pageTokenRequired();
        }
        if (!grant.scopes().containsAll(Set.of("pages_read_engagement", "pages_read_user_content"))) {
            // Comments are content people posted on the Page: Graph asks for pages_read_user_content besides
            // engagement.
            return fake.json(
                    403,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            10,
                            null,
                            "(#10) This endpoint requires the 'pages_read_engagement' and 'pages_read_user_content' permissions",
                            false));
        }
        JsonNode item = fake.publishedItem(id);
        FakeComment comment = item == null ? findComment(id) : null;
        if (item == null && comment == null) {
            return fake.doesNotExist("get", id);
        }
        List<FakeComment> all = comments(item != null ? item : fake.publishedItem(comment.itemId()));
        List<FakeComment> listed;
        if (item != null) {
            String filter = request.queryParameter("filter");
            if (filter != null && !filter.equals("toplevel") && !filter.equals("stream")) {
                return fake.json(
                        400,
                        GraphErrorShapes.error(
                                fake.object(),
                                "OAuthException",
                                100,
                                null,
                                "(#100) param filter must be one of {toplevel, stream} - got \"" + filter + "\"",
                                false));
            }
            listed = all.stream()
                    .filter(each -> "stream".equals(filter) || each.topLevel())
                    .toList();
        } else {
            listed = comment.topLevel() ? StatefulPlatformFake.repliesTo(all, comment.id()) : List.of();
        }
        String order = request.queryParameter("order");
        if (order != null && !order.equals("chronological") && !order.equals("reverse_chronological")) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            100,
                            null,
                            "(#100) param order must be one of {chronological, reverse_chronological} - got \"" + order
                                    + "\"",
                            false));
        }
        if ("reverse_chronological".equals(order)) {
            listed = new ArrayList<>(listed);
            Collections.reverse(listed);
        }
        String fields = request.queryParameter("fields");
        List<GraphFields> wanted = fields == null ? COMMENT_DEFAULT_FIELDS : GraphFields.parse(fields);
        String unknown = GraphFields.firstUnknown(wanted, COMMENT_FIELDS, "parent");
        if (unknown != null) {
            return fake.nonexistingField(unknown, "Comment");
        }
        return fake.graphCommentPage(
                request, request.queryParameter("after"), listed, each -> shownComment(each, wanted, all));
    }

    private ObjectNode shownComment(FakeComment comment, List<GraphFields> fields, List<FakeComment> all) {
        ObjectNode shown = fake.object();
        for (GraphFields field : fields) {
            switch (field.name()) {
                case "id" -> shown.put("id", comment.id());
                case "message" -> shown.put("message", comment.text());
                case "created_time" ->
                    shown.put(
                            "created_time",
                            comment.createdAt().atOffset(ZoneOffset.UTC).format(FacebookGraphFake.GRAPH_TIME));
                case "from" ->
                    shown.putObject("from").put("name", comment.authorName()).put("id", comment.authorId());
                case "parent" ->
                    all.stream()
                            .filter(parent -> parent.id().equals(comment.parentId()))
                            .findFirst()
                            .ifPresent(parent -> shown.set(
                                    "parent",
                                    shownComment(
                                            parent,
                                            field.subfields() == null ? COMMENT_DEFAULT_FIELDS : field.subfields(),
                                            all)));
                case "comment_count" ->
                    shown.put(
                            "comment_count",
                            StatefulPlatformFake.repliesTo(all, comment.id()).size());
                case "like_count" -> shown.put("like_count", 0);
                case "is_hidden" -> shown.put("is_hidden", false);
                default -> shown.put("can_comment", comment.topLevel());
            }
        }
        return shown;
    }

    /**
     * {@code POST /{object}/comments} with {@code message} (form or query), as the Page: on a published post or video, a
     * top-level comment; on a comment, a reply in its thread (a reply to a reply joins the top-level comment, as Graph
     * threads them). Answers {@code {"id"}}; the comment shows in later reads.
     */
    FakeResponse createComment(FakeRequest request, IssuedGrant grant, String id) {
        if (!FacebookGraphFake.PAGE_ID.equals(grant.subject())) {
            return pageTokenRequired();
        }
        if (!grant.scopes().contains("pages_manage_engagement")) {
            return fake.json(
                    403,
                    GraphErrorShapes.error(
                            fake.object(),
                            "OAuthException",
                            200,
                            null,
                            "(#200) Commenting as the Page requires the pages_manage_engagement permission",
                            false));
        }
        String message = request.form().getOrDefault("message", request.queryParameter("message"));
        String itemId;
        String parentId = null;
        JsonNode item = fake.publishedItem(id);
        if (item != null) {
            itemId = item.path("id").asText();
        } else {
            FakeComment comment = findComment(id);
            if (comment == null) {
                return fake.doesNotExist("post", id);
            }
            itemId = comment.itemId();
            parentId = comment.topLevel() ? comment.id() : comment.parentId();
        }
        if (FacebookPages.blank(message)) {
            return fake.json(
                    400,
                    GraphErrorShapes.error(
                            fake.object(), "OAuthException", 100, null, "(#100) Missing message or attachment", false));
        }
        FakeComment created = fake.keepComment(new FakeComment(
                commentPrefix(itemId) + "_" + FakeIds.digits(16),
                itemId,
                parentId,
                message,
                FacebookGraphFake.PAGE_ID,
                FacebookGraphFake.PAGE_NAME,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return fake.json(200, fake.object().put("id", created.id()));
    }

    /**
     * An item's comments, oldest first. A comment's id is {@code <the item's object id>_<16 digits>}, as Graph's are;
     * seeded ones are dated at the item's publication.
     */
    List<FakeComment> comments(JsonNode item) {
        String itemId = item.path("id").asText();
        Instant publishedAt = OffsetDateTime.parse(item.path("created_time").asText(), FacebookGraphFake.GRAPH_TIME)
                .toInstant();
        return fake.commentsOn(
                itemId,
                publishedAt,
                index -> seededCommentId(itemId, index),
                SeededComments.Commenter::facebookId,
                SeededComments.Commenter::name);
    }

    private FakeComment findComment(String id) {
        for (JsonNode item : fake.published()) {
            if (id.startsWith(commentPrefix(item.path("id").asText()) + "_")) {
                for (FakeComment comment : comments(item)) {
                    if (comment.id().equals(id)) {
                        return comment;
                    }
                }
            }
        }
        return null;
    }

    private static String seededCommentId(String itemId, int index) {
        return commentPrefix(itemId) + "_" + SeededComments.digits(itemId, index, 16);
    }

    /** A Page post's id without the Page's part ({@code <page>_<post>}); a video's id as it is. */
    private static String commentPrefix(String itemId) {
        return itemId.substring(itemId.indexOf('_') + 1);
    }

    private FakeResponse pageTokenRequired() {
        return fake.json(
                400,
                GraphErrorShapes.error(
                        fake.object(),
                        "OAuthException",
                        210,
                        null,
                        "(#210) A page access token is required to request this resource.",
                        false));
    }
}
