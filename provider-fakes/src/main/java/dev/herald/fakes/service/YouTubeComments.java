package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * YouTube's comments: {@code GET /youtube/v3/commentThreads} of a published video and {@code POST
 * /youtube/v3/comments} replying as the channel, with the comment resource as YouTube shows it.
 */
final class YouTubeComments {
    private static final int MAX_COMMENT_LENGTH = 10_000;
    private final YouTubeFake fake;

    YouTubeComments(YouTubeFake fake) {
        this.fake = fake;
    }

    /**
     * {@code commentThreads.list} by {@code videoId}: the video's threads (the top-level comment's id is the thread's),
     * newest first whatever the {@code order}, with the parts asked for ({@code id}, {@code snippet}, {@code replies}:
     * every reply, oldest first, left out when there is none); {@code maxResults} (20, at most 100) and
     * {@code pageToken} page through them ({@code nextPageToken}). {@code textFormat=plainText} gives
     * {@code textDisplay} as written, else HTML-escaped; {@code textOriginal} only on the channel's own comments, as
     * YouTube documents ("only returned to the authenticated user if they are the comment's author"). The comments are
     * the video's {@link SeededComments} (from their channels) and the replies posted as the channel. A video the fake
     * did not publish is YouTube's 404 {@code videoNotFound}.
     */
    FakeResponse commentThreads(FakeRequest request) {
        String part = request.queryParameter("part");
        String videoId = request.queryParameter("videoId");
        if (part == null || videoId == null) {
            return fake.apiError(
                    400,
                    "missingRequiredParameter",
                    "INVALID_ARGUMENT",
                    "part and videoId are required (the fake fakes the" + " videoId filter only).");
        }
        JsonNode video = fake
                .publishedWhere(item -> videoId.equals(item.path("id").asText()))
                .stream()
                .findFirst()
                .orElse(null);
        if (video == null) {
            return fake.apiError(
                    404,
                    "videoNotFound",
                    "NOT_FOUND",
                    "The video identified by the videoId parameter could not be found.");
        }
        Set<String> parts = Set.of(part.split(","));
        boolean plainText = "plainText".equals(request.queryParameter("textFormat"));
        List<FakeComment> all = comments(video);
        List<FakeComment> threads =
                new ArrayList<>(all.stream().filter(FakeComment::topLevel).toList());
        Collections.reverse(threads);
        int start = 0;
        String pageToken = request.queryParameter("pageToken");
        if (pageToken != null) {
            String offset = StatefulPlatformFake.position(pageToken);
            if (offset == null || !offset.matches("[0-9]{1,6}") || Integer.parseInt(offset) > threads.size()) {
                return fake.apiError(
                        400, "invalidPageToken", "INVALID_ARGUMENT", "The request specifies an invalid page token.");
            }
            start = Integer.parseInt(offset);
        }
        int maxResults = Math.min(100, request.intQueryParameter("maxResults", 20));
        List<FakeComment> page = threads.subList(start, Math.min(threads.size(), start + maxResults));
        ObjectNode body =
                fake.object().put("kind", "youtube#commentThreadListResponse").put("etag", FakeIds.alphanumeric(27));
        if (start + page.size() < threads.size()) {
            body.put("nextPageToken", StatefulPlatformFake.cursor(Integer.toString(start + page.size())));
        }
        body.putObject("pageInfo").put("totalResults", page.size()).put("resultsPerPage", maxResults);
        ArrayNode items = body.putArray("items");
        for (FakeComment top : page) {
            ObjectNode thread = items.addObject()
                    .put("kind", "youtube#commentThread")
                    .put("etag", FakeIds.alphanumeric(27))
                    .put("id", top.id());
            List<FakeComment> replies = StatefulPlatformFake.repliesTo(all, top.id());
            if (parts.contains("snippet")) {
                thread.putObject("snippet")
                        .put("channelId", YouTubeFake.CHANNEL_ID)
                        .put("videoId", videoId)
                        .<ObjectNode>set("topLevelComment", commentResource(top, plainText))
                        .put("canReply", true)
                        .put("totalReplyCount", replies.size())
                        .put("isPublic", true);
            }
            if (parts.contains("replies") && !replies.isEmpty()) {
                ArrayNode comments = thread.putObject("replies").putArray("comments");
                replies.forEach(reply -> comments.add(commentResource(reply, plainText)));
            }
        }
        return fake.json(200, body);
    }

    /**
     * {@code comments.insert?part=snippet} with {@code snippet.parentId} (a top-level comment: YouTube takes replies to
     * those only, so a reply's id is 404 {@code parentCommentNotFound} like an unknown one) and
     * {@code snippet.textOriginal} (1 to 10,000 characters): the reply, as the channel, joins the thread; answers the
     * comment resource.
     */
    FakeResponse insertComment(FakeRequest request) {
        FakeResponse refused = insertRefusal(request, "comment");
        if (refused != null) {
            return refused;
        }
        JsonNode snippet = fake.jsonBody(request).path("snippet");
        String parentId = snippet.path("parentId").asText("");
        FakeComment parent = null;
        for (JsonNode video : fake.published()) {
            for (FakeComment comment : comments(video)) {
                if (comment.topLevel() && comment.id().equals(parentId)) {
                    parent = comment;
                }
            }
        }
        if (parent == null) {
            return fake.apiError(
                    404,
                    "parentCommentNotFound",
                    "NOT_FOUND",
                    "The specified parent comment could not be found. Check the"
                            + " value of the request's snippet.parentId property to ensure that it is correct.");
        }
        String text = snippet.path("textOriginal").asText("");
        FakeResponse badText = textRefusal(text, "snippet.textOriginal");
        if (badText != null) {
            return badText;
        }
        FakeComment reply = fake.keepComment(new FakeComment(
                parent.id() + "." + FakeIds.token("", 22),
                parent.itemId(),
                parent.id(),
                text,
                YouTubeFake.CHANNEL_ID,
                YouTubeFake.CHANNEL_TITLE,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        return fake.json(200, commentResource(reply, true));
    }

    /**
     * {@code commentThreads.insert?part=snippet} (https://developers.google.com/youtube/v3/docs/commentThreads/insert)
     * with {@code snippet.videoId} (a video the fake published, else 404 {@code videoNotFound}),
     * {@code snippet.channelId} (the channel, when given) and {@code snippet.topLevelComment.snippet.textOriginal} (1 to
     * 10,000 characters): a top-level comment as the channel; answers the commentThread resource, whose id is the
     * top-level comment's. Authorized by {@code youtube.force-ssl} only, as {@code comments.insert}.
     */
    FakeResponse insertThread(FakeRequest request) {
        FakeResponse refused = insertRefusal(request, "commentThread");
        if (refused != null) {
            return refused;
        }
        JsonNode snippet = fake.jsonBody(request).path("snippet");
        String videoId = snippet.path("videoId").asText("");
        JsonNode video = fake
                .publishedWhere(item -> videoId.equals(item.path("id").asText()))
                .stream()
                .findFirst()
                .orElse(null);
        if (video == null) {
            return fake.apiError(
                    404,
                    "videoNotFound",
                    "NOT_FOUND",
                    "The video identified by the snippet.videoId property could not be found.");
        }
        String channelId = snippet.path("channelId").asText(YouTubeFake.CHANNEL_ID);
        if (!YouTubeFake.CHANNEL_ID.equals(channelId)) {
            return fake.apiError(
                    400,
                    "invalidCommentThreadMetadata",
                    "INVALID_ARGUMENT",
                    "The request metadata is invalid: snippet.channelId is not the authorized channel.");
        }
        String text = snippet.path("topLevelComment")
                .path("snippet")
                .path("textOriginal")
                .asText("");
        FakeResponse badText = textRefusal(text, "snippet.topLevelComment.snippet.textOriginal");
        if (badText != null) {
            return badText;
        }
        FakeComment top = fake.keepComment(new FakeComment(
                "Ugz" + FakeIds.token("", 16) + "4AaABAg",
                videoId,
                null,
                text,
                YouTubeFake.CHANNEL_ID,
                YouTubeFake.CHANNEL_TITLE,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                true));
        ObjectNode thread = fake.object()
                .put("kind", "youtube#commentThread")
                .put("etag", FakeIds.alphanumeric(27))
                .put("id", top.id());
        thread.putObject("snippet")
                .put("channelId", YouTubeFake.CHANNEL_ID)
                .put("videoId", videoId)
                .<ObjectNode>set("topLevelComment", commentResource(top, true))
                .put("canReply", true)
                .put("totalReplyCount", 0)
                .put("isPublic", true);
        return fake.json(200, thread);
    }

    /**
     * Why an insert ({@code comments.insert}, {@code commentThreads.insert}) is refused before its content is looked at:
     * a token without {@code youtube.force-ssl} (neither {@code youtube.upload} nor {@code youtube.readonly} authorizes
     * it), or no {@code part=snippet} with a JSON {@code snippet}; null when neither.
     */
    private FakeResponse insertRefusal(FakeRequest request, String resource) {
        IssuedGrant grant = fake.grant(request);
        if (grant == null || !grant.scopes().contains(YouTubeFake.FORCE_SSL)) {
            return fake.apiError(
                    403,
                    "insufficientPermissions",
                    "PERMISSION_DENIED",
                    "Request had insufficient authentication scopes.");
        }
        String part = request.queryParameter("part");
        JsonNode body = fake.jsonBody(request);
        JsonNode snippet = body == null ? null : body.path("snippet");
        if (part == null || !Set.of(part.split(",")).contains("snippet") || snippet == null || !snippet.isObject()) {
            return fake.apiError(
                    400,
                    "invalidPart",
                    "INVALID_ARGUMENT",
                    "part=snippet and the " + resource + "'s JSON are required.");
        }
        return null;
    }

    /** YouTube's answer to a comment text that is blank or longer than 10,000 characters; null when it is neither. */
    private FakeResponse textRefusal(String text, String field) {
        if (text.isBlank()) {
            return fake.apiError(
                    400,
                    "invalidCommentMetadata",
                    "INVALID_ARGUMENT",
                    "The request metadata is invalid: " + field + " is required.");
        }
        if (text.length() > MAX_COMMENT_LENGTH) {
            return fake.apiError(
                    400,
                    "commentTextTooLong",
                    "INVALID_ARGUMENT",
                    "The comment resource that is being inserted or updated"
                            + " contains too many characters in the snippet.textOriginal property.");
        }
        return null;
    }

    /**
     * A video's comments, oldest first. Top-level ids look like YouTube's ({@code Ugz} + 16 letters + {@code 4AaABAg}),
     * a reply's is its parent's, a dot and 22 letters; seeded ones are dated at the video's publication.
     */
    private List<FakeComment> comments(JsonNode video) {
        String videoId = video.path("id").asText();
        Instant publishedAt =
                Instant.parse(video.path("snippet").path("publishedAt").asText());
        return fake.commentsOn(videoId, seed -> {
            String topId = "Ugz"
                    + SeededComments.letters(
                            videoId, seed.parentIndex() == null ? seed.index() : seed.parentIndex(), 16)
                    + "4AaABAg";
            return new FakeComment(
                    seed.parentIndex() == null
                            ? topId
                            : topId + "." + SeededComments.letters(videoId, seed.index(), 22),
                    videoId,
                    seed.parentIndex() == null ? null : topId,
                    seed.text(),
                    seed.author().youtubeChannelId(),
                    seed.author().name(),
                    publishedAt,
                    false);
        });
    }

    /** The comment resource (https://developers.google.com/youtube/v3/docs/comments#resource). */
    private ObjectNode commentResource(FakeComment comment, boolean plainText) {
        ObjectNode resource = fake.object()
                .put("kind", "youtube#comment")
                .put("etag", FakeIds.alphanumeric(27))
                .put("id", comment.id());
        ObjectNode snippet = resource.putObject("snippet").put("channelId", YouTubeFake.CHANNEL_ID);
        if (comment.topLevel()) {
            snippet.put("videoId", comment.itemId());
        }
        snippet.put("textDisplay", plainText ? comment.text() : html(comment.text()));
        if (comment.own()) {
            snippet.put("textOriginal", comment.text());
        }
        if (!comment.topLevel()) {
            snippet.put("parentId", comment.parentId());
        }
        String published = comment.createdAt().toString();
        snippet.put("authorDisplayName", comment.authorName())
                .put(
                        "authorProfileImageUrl",
                        "https://yt3.ggpht.com/ytc/" + comment.authorId() + "=s48-c-k-c0x00ffffff-no-rj")
                .put("authorChannelUrl", "http://www.youtube.com/channel/" + comment.authorId());
        snippet.putObject("authorChannelId").put("value", comment.authorId());
        snippet.put("canRate", true)
                .put("viewerRating", "none")
                .put("likeCount", 0)
                .put("publishedAt", published)
                .put("updatedAt", published);
        return resource;
    }

    /** {@code textFormat=html}: the text escaped, line breaks as {@code <br>}. */
    private static String html(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;")
                .replace("\n", "<br>");
    }
}
