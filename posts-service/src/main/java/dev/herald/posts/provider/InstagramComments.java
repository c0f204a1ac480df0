package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Instagram comments through the Instagram API with Instagram Login (bearer token, as the publisher uses it):
 * a media's comments with their replies nested ({@code replies{...}}), and replies to top-level comments
 * ({@code POST /{comment-id}/replies}; Instagram adds a reply to a reply to its top-level comment).
 */
@ApplicationScoped
public class InstagramComments implements CommentsProvider {
    static final String FIELDS = "id,text,username,timestamp,replies{id,text,username,timestamp}";
    static final int PAGE_SIZE = 50;

    private final InstagramCommentsApi api;
    private final ObjectMapper mapper;
    private final Clock clock;

    public InstagramComments(@RestClient InstagramCommentsApi api, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Platform platform() {
        return Platform.INSTAGRAM;
    }

    @Override
    public Uni<List<ProviderComment>> read(ActingAccount account, String providerPostId) {
        return api.comments(account.bearer(), providerPostId, FIELDS, PAGE_SIZE)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body = PlatformFailures.body(platform(), account, response, mapper, GraphErrors::read);
                    Instant now = clock.instant();
                    List<ProviderComment> comments = new ArrayList<>();
                    for (JsonNode item : body.path("data")) {
                        if (!item.path("id").isTextual()) {
                            continue;
                        }
                        comments.add(comment(account, item, null, now));
                        for (JsonNode reply : item.path("replies").path("data")) {
                            if (reply.path("id").isTextual()) {
                                comments.add(
                                        comment(account, reply, item.get("id").asText(), now));
                            }
                        }
                    }
                    return comments;
                });
    }

    private static ProviderComment comment(ActingAccount account, JsonNode item, String parent, Instant now) {
        String username = item.path("username").asText("");
        return new ProviderComment(
                item.get("id").asText(),
                parent,
                item.path("text").asText(""),
                username,
                username,
                !username.isEmpty() && username.equalsIgnoreCase(account.username()),
                GraphErrors.time(item.path("timestamp"), now));
    }

    @Override
    public Uni<ProviderComment> reply(ActingAccount account, String providerCommentId, String text) {
        return created(account, api.reply(account.bearer(), providerCommentId, text), providerCommentId, text);
    }

    /** {@code POST /{ig-media-id}/comments}. */
    @Override
    public Uni<ProviderComment> comment(ActingAccount account, String providerPostId, String text) {
        return created(account, api.comment(account.bearer(), providerPostId, text), null, text);
    }

    private Uni<ProviderComment> created(ActingAccount account, Uni<Response> call, String parentId, String text) {
        return call.onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body = PlatformFailures.body(platform(), account, response, mapper, GraphErrors::read);
                    String id = ProviderAnswers.requiredText(platform(), account, body.path("id"));
                    // Instagram names authors by username only: as a later read will, so it never
                    // changes.
                    return new ProviderComment(
                            id, parentId, text, account.username(), account.username(), true, clock.instant());
                });
    }
}
