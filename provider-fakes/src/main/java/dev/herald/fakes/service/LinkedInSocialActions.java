package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LinkedIn's Social Actions API on the posts the fake holds: a post's or comment's likes and comments summary, listing
 * its comments (with Rest.li paging) and commenting as a member or an organization.
 */
final class LinkedInSocialActions {
    private static final Pattern COMMENT_URN =
            Pattern.compile("^urn:li:comment:\\((urn:li:[A-Za-z]+:[^,]+),([0-9]+)\\)$");
    private final LinkedInFake fake;

    LinkedInSocialActions(LinkedInFake fake) {
        this.fake = fake;
    }

    /**
     * A post's social actions summary (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/network-update-social-actions):
     * likes and comments as {@link PublishedMetrics} counts them, read with the scope that reads the author's posts.
     */
    FakeResponse socialActions(FakeRequest request, IssuedGrant grant, String urn) {
        ObjectNode post = fake.publishedWhere(item -> urn.equals(item.path("id").asText())).stream()
                .findFirst()
                .orElse(null);
        if (post == null) {
            return fake.error(404, 0, "NOT_FOUND", "Not Found");
        }
        String scope = LinkedInFake.PERSON_URN.equals(post.path("author").asText())
                ? "r_member_social"
                : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: socialActions.GET." + request.header("linkedin-version"));
        }
        PublishedMetrics.Item numbers = PublishedMetrics.item(
                urn, Instant.ofEpochMilli(post.path("createdAt").asLong()), Instant.now());
        ObjectNode body = fake.object();
        body.putObject("likesSummary")
                .put("totalLikes", numbers.likes())
                .put("aggregatedTotalLikes", numbers.likes())
                .put("likedByCurrentUser", false)
                .putArray("selectedLikes");
        body.putObject("commentsSummary")
                .put("totalFirstLevelComments", numbers.comments())
                .put("aggregatedTotalComments", numbers.comments())
                .put("commentsState", "OPEN")
                .putArray("selectedComments");
        return fake.json(200, body.put("target", urn).put("$URN", "urn:li:socialActions:" + urn));
    }

    /** What a social-actions path names: a post (by its URN or its activity's), or a comment on one. */
    private record Target(ObjectNode post, FakeComment comment) {}

    private Target target(String urn) {
        Matcher commentUrn = COMMENT_URN.matcher(urn);
        for (ObjectNode post : fake.publishedWhere(item -> true)) {
            String postUrn = post.path("id").asText();
            if (urn.equals(postUrn) || urn.equals(activity(postUrn))) {
                return new Target(post, null);
            }
            if (commentUrn.matches()
                    && (commentUrn.group(1).equals(postUrn)
                            || commentUrn.group(1).equals(activity(postUrn)))) {
                return comments(post).stream()
                        .filter(comment -> comment.id().equals(commentUrn.group(2)))
                        .findFirst()
                        .map(comment -> new Target(post, comment))
                        .orElse(null);
            }
        }
        return null;
    }

    /**
     * The comments on a post (its URN, or its activity's) or nested under a comment (its comment URN), newest first:
     * {@code start} and {@code count} (10, at most 100) page through them ({@code paging.total}, a {@code next} link).
     * Each is LinkedIn's comment object: {@code id}, {@code commentUrn} ({@code urn:li:comment:(<activity>,<id>)}, the
     * URN a reply targets) and {@code $URN}, {@code object} (the post's activity), {@code actor} (a member's or
     * organization's URN; LinkedIn gives no names), {@code created}/{@code lastModified}, {@code message.text}, a
     * nested one's {@code parentComment}, and summaries ({@code commentsSummary} counts a top-level comment's nested
     * ones, which only the comment's own listing shows). The comments are the post's {@link SeededComments} and those
     * posted through the fake. Read with the scope that reads the post's author (as {@link #socialActions}); a URN that
     * names nothing is 404.
     */
    FakeResponse listComments(FakeRequest request, IssuedGrant grant, String urn) {
        Target target = target(urn);
        if (target == null) {
            return fake.error(404, 0, "NOT_FOUND", "Not Found");
        }
        String scope =
                LinkedInFake.PERSON_URN.equals(target.post().path("author").asText())
                        ? "r_member_social"
                        : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.FINDER." + request.header("linkedin-version"));
        }
        List<FakeComment> all = comments(target.post());
        List<FakeComment> listed = new ArrayList<>(
                target.comment() == null
                        ? all.stream().filter(FakeComment::topLevel).toList()
                        : target.comment().topLevel()
                                ? StatefulPlatformFake.repliesTo(
                                        all, target.comment().id())
                                : List.<FakeComment>of());
        Collections.reverse(listed);
        int start = Math.min(listed.size(), offset(request.queryParameter("start")));
        int count = Math.min(100, request.intQueryParameter("count", 10));
        ObjectNode body = fake.object();
        ArrayNode elements = body.putArray("elements");
        String postUrn = target.post().path("id").asText();
        listed.subList(start, Math.min(listed.size(), start + count))
                .forEach(comment -> elements.add(shownComment(postUrn, comment, all)));
        ObjectNode paging =
                body.putObject("paging").put("start", start).put("count", count).put("total", listed.size());
        ArrayNode links = paging.putArray("links");
        if (start + count < listed.size()) {
            links.addObject()
                    .put("type", "application/json")
                    .put("rel", "next")
                    .put(
                            "href",
                            "/rest/socialActions/" + URLEncoder.encode(urn, StandardCharsets.UTF_8) + "/comments?count="
                                    + count + "&start=" + (start + count));
        }
        return fake.json(200, body);
    }

    private ObjectNode shownComment(String postUrn, FakeComment comment, List<FakeComment> all) {
        String activity = activity(postUrn);
        String urn = commentUrn(activity, comment.id());
        long time = comment.createdAt().toEpochMilli();
        ObjectNode shown = fake.object()
                .put("actor", comment.authorId())
                .put("commentUrn", urn)
                .put("id", comment.id())
                .put("object", activity);
        if (!comment.topLevel()) {
            shown.put("parentComment", commentUrn(activity, comment.parentId()));
        }
        shown.putObject("created").put("actor", comment.authorId()).put("time", time);
        shown.putObject("lastModified").put("actor", comment.authorId()).put("time", time);
        shown.putObject("message").put("text", comment.text()).putArray("attributes");
        shown.putObject("likesSummary")
                .put("totalLikes", 0)
                .put("aggregatedTotalLikes", 0)
                .put("likedByCurrentUser", false)
                .putArray("selectedLikes");
        List<FakeComment> nested = StatefulPlatformFake.repliesTo(all, comment.id());
        ArrayNode selected = shown.putObject("commentsSummary")
                .put("totalFirstLevelComments", nested.size())
                .put("aggregatedTotalComments", nested.size())
                .putArray("selectedComments");
        nested.forEach(reply -> selected.add(commentUrn(activity, reply.id())));
        return shown.put("$URN", urn);
    }

    /**
     * A comment as {@code actor} (the member, or the organization it administers, with {@code w_member_social} or
     * {@code w_organization_social}) on the post or comment in the path: {@code object} is the post's activity (or the
     * post's URN), {@code message.text} the text, and on a comment {@code parentComment} is that comment's URN (a
     * comment on a nested one joins its top-level comment, as Herald threads them). 201 with the comment and its id in
     * {@code x-restli-id}.
     */
    FakeResponse createComment(FakeRequest request, IssuedGrant grant, String urn) {
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return fake.error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required.");
        }
        JsonNode body = fake.jsonBody(request);
        if (body == null) {
            return fake.error(400, 0, "BAD_REQUEST", "The request body is not a JSON object.");
        }
        Target target = target(urn);
        if (target == null) {
            return fake.error(404, 0, "NOT_FOUND", "Not Found");
        }
        String actor = body.path("actor").asText("");
        if (!LinkedInFake.PERSON_URN.equals(actor) && !LinkedInFake.ORGANIZATION_URN.equals(actor)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.CREATE." + request.header("linkedin-version") + " (as "
                            + actor + ")");
        }
        String scope = LinkedInFake.PERSON_URN.equals(actor) ? "w_member_social" : "w_organization_social";
        if (!grant.scopes().contains(scope)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: comments.CREATE." + request.header("linkedin-version")
                            + " (the token lacks " + scope + ")");
        }
        String postUrn = target.post().path("id").asText();
        String object = body.path("object").asText("");
        if (!object.equals(postUrn) && !object.equals(activity(postUrn))) {
            return fake.error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/object :: must be the commented post's URN or activity, not " + object);
        }
        String parentComment = body.path("parentComment").asText(null);
        if (target.comment() == null ? parentComment != null : !urn.equals(parentComment)) {
            return fake.error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/parentComment :: must be the comment in the path when commenting on a"
                            + " comment, and absent otherwise");
        }
        String text = body.path("message").path("text").asText("");
        if (text.isBlank()) {
            return fake.error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/message/text :: field is required but not found and has no default" + " value");
        }
        String parentId = target.comment() == null
                ? null
                : target.comment().topLevel()
                        ? target.comment().id()
                        : target.comment().parentId();
        FakeComment created = fake.keepComment(new FakeComment(
                FakeIds.digits(19),
                postUrn,
                parentId,
                text,
                actor,
                LinkedInFake.PERSON_URN.equals(actor) ? LinkedInFake.MEMBER_NAME : LinkedInFake.ORGANIZATION_NAME,
                Instant.now(),
                true));
        return fake.json(201, shownComment(postUrn, created, comments(target.post())))
                .withHeader("x-restli-id", created.id())
                .withHeader("x-linkedin-id", created.id());
    }

    /** A post's comments, oldest first; seeded ones by other members, at the post's creation, with 19-digit ids. */
    private List<FakeComment> comments(ObjectNode post) {
        String postUrn = post.path("id").asText();
        Instant createdAt = Instant.ofEpochMilli(post.path("createdAt").asLong());
        return fake.commentsOn(
                postUrn,
                createdAt,
                index -> SeededComments.digits(postUrn, index, 19),
                SeededComments.Commenter::linkedinUrn,
                SeededComments.Commenter::name);
    }

    /**
     * The activity of a post, which its comments name as their {@code object} and in their URNs, as LinkedIn's do:
     * {@code urn:li:activity:} and 19 digits derived from the post's URN (the seed index -1 is no comment's).
     */
    private static String activity(String postUrn) {
        return "urn:li:activity:" + SeededComments.digits(postUrn, -1, 19);
    }

    /** Rest.li's {@code start}: 0 or more, 0 when absent or unreadable. */
    private static int offset(String start) {
        try {
            return start == null ? 0 : Math.max(0, Integer.parseInt(start));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String commentUrn(String activity, String commentId) {
        return "urn:li:comment:(" + activity + "," + commentId + ")";
    }
}
