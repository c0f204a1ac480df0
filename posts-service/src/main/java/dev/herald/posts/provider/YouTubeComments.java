package dev.herald.posts.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * YouTube comments through the Data API v3 with the channel's token (the account's external id is the channel id):
 * {@code commentThreads.list} for a video (top-level comments and the replies YouTube includes), and
 * {@code comments.insert} for replies, whose {@code parentId} must be a top-level comment. Errors are Google's
 * ({@code {"error": {"code", "message", "errors": [{"reason"}]}}}); quota and rate reasons are the platform's limit.
 */
@ApplicationScoped
public class YouTubeComments implements CommentsProvider {
    static final int PAGE_SIZE = 100;
    private static final Set<String> RATE_LIMITS =
            Set.of("rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded");

    private final YouTubeCommentsApi api;
    private final ObjectMapper mapper;
    private final Clock clock;

    public YouTubeComments(@RestClient YouTubeCommentsApi api, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Platform platform() {
        return Platform.YOUTUBE;
    }

    @Override
    public Uni<List<ProviderComment>> read(ActingAccount account, String providerPostId) {
        return api.threads(account.bearer(), "snippet,replies", providerPostId, PAGE_SIZE, "time", "plainText")
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, YouTubeComments::error);
                    Instant now = clock.instant();
                    List<ProviderComment> comments = new ArrayList<>();
                    for (JsonNode thread : body.path("items")) {
                        JsonNode top = thread.path("snippet").path("topLevelComment");
                        if (!top.path("id").isTextual()) {
                            continue;
                        }
                        comments.add(comment(account, top, null, now));
                        for (JsonNode reply : thread.path("replies").path("comments")) {
                            if (reply.path("id").isTextual()) {
                                comments.add(
                                        comment(account, reply, top.get("id").asText(), now));
                            }
                        }
                    }
                    return comments;
                });
    }

    private static ProviderComment comment(ActingAccount account, JsonNode comment, String parent, Instant now) {
        JsonNode snippet = comment.path("snippet");
        String channel = snippet.path("authorChannelId").path("value").asText("");
        String text = snippet.hasNonNull("textOriginal")
                ? snippet.get("textOriginal").asText()
                : snippet.path("textDisplay").asText("");
        return new ProviderComment(
                comment.get("id").asText(),
                parent,
                text,
                snippet.path("authorDisplayName").asText(channel),
                channel,
                !channel.isEmpty() && channel.equals(account.access().externalId()),
                time(snippet.path("publishedAt"), now));
    }

    private static Instant time(JsonNode value, Instant fallback) {
        try {
            return value.isTextual() ? Instant.parse(value.asText()) : fallback;
        } catch (DateTimeParseException e) {
            return fallback;
        }
    }

    @Override
    public Uni<ProviderComment> reply(ActingAccount account, String providerCommentId, String text) {
        ObjectNode request = mapper.createObjectNode();
        request.putObject("snippet").put("parentId", providerCommentId).put("textOriginal", text);
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a reply cannot be serialized", e));
        }
        return api.reply(account.bearer(), "snippet", body)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode created =
                            PlatformFailures.body(platform(), account, response, mapper, YouTubeComments::error);
                    String id = ProviderAnswers.requiredText(platform(), account, created.path("id"));
                    // Named as a later read will name it (the snippet's author, by channel id), so the stored reply
                    // never changes author; the account's own name and channel where the answer leaves them out.
                    JsonNode snippet = created.path("snippet");
                    String channel = snippet.path("authorChannelId")
                            .path("value")
                            .asText(account.access().externalId());
                    return new ProviderComment(
                            id,
                            providerCommentId,
                            text,
                            snippet.path("authorDisplayName").asText(account.name()),
                            channel,
                            true,
                            time(snippet.path("publishedAt"), clock.instant()));
                });
    }

    /** {@code commentThreads.insert} on the video; the thread's top-level comment is the first comment. */
    @Override
    public Uni<ProviderComment> comment(ActingAccount account, String providerPostId, String text) {
        ObjectNode request = mapper.createObjectNode();
        ObjectNode snippet = request.putObject("snippet")
                .put("channelId", account.access().externalId())
                .put("videoId", providerPostId);
        snippet.putObject("topLevelComment").putObject("snippet").put("textOriginal", text);
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a comment cannot be serialized", e));
        }
        return api.thread(account.bearer(), "snippet", body)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode thread =
                            PlatformFailures.body(platform(), account, response, mapper, YouTubeComments::error);
                    JsonNode top = thread.path("snippet").path("topLevelComment");
                    // The thread's id is its top-level comment's, which YouTube also gives on the comment itself.
                    String id = ProviderAnswers.requiredText(
                            platform(), account, top.path("id").isTextual() ? top.path("id") : thread.path("id"));
                    JsonNode shown = top.path("snippet");
                    return new ProviderComment(
                            id,
                            null,
                            text,
                            shown.path("authorDisplayName").asText(account.name()),
                            shown.path("authorChannelId")
                                    .path("value")
                                    .asText(account.access().externalId()),
                            true,
                            time(shown.path("publishedAt"), clock.instant()));
                });
    }

    static PlatformFailures.PlatformError error(int status, JsonNode body) {
        JsonNode error = body.path("error");
        String reason = error.path("errors").path(0).path("reason").asText(null);
        String message = error.path("message").asText("");
        if (status == 401) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.TOKEN_REFUSED, reason, message);
        }
        if (status == 429 || (status == 403 && reason != null && RATE_LIMITS.contains(reason))) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.RATE_LIMITED, reason, message);
        }
        return new PlatformFailures.PlatformError(PlatformFailures.Kind.FAILED, reason, message);
    }
}
