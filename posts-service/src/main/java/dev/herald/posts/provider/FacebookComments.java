package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Facebook Page comments through the Graph API, with the Page's token (the account's external id is the Page id).
 * {@code filter=stream} lists replies alongside comments, each naming its {@code parent}. Graph
 * gives commenters' names and ids but no handle: the id stands in as the username.
 */
@ApplicationScoped
public class FacebookComments implements CommentsProvider {
    static final String FIELDS = "id,message,from,created_time,parent{id}";
    static final int PAGE_SIZE = 100;

    private final FacebookCommentsApi api;
    private final ObjectMapper mapper;
    private final Clock clock;

    public FacebookComments(@RestClient FacebookCommentsApi api, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Platform platform() {
        return Platform.FACEBOOK;
    }

    @Override
    public Uni<List<ProviderComment>> read(ActingAccount account, String providerPostId) {
        return api.comments(account.bearer(), providerPostId, FIELDS, "stream", "reverse_chronological", PAGE_SIZE)
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
                        JsonNode from = item.path("from");
                        String parent = item.path("parent").path("id").asText(null);
                        comments.add(new ProviderComment(
                                item.get("id").asText(),
                                parent,
                                item.path("message").asText(""),
                                from.path("name").asText("Facebook user"),
                                from.path("id").asText(""),
                                from.path("id")
                                        .asText("")
                                        .equals(account.access().externalId()),
                                GraphErrors.time(item.path("created_time"), now)));
                    }
                    return comments;
                });
    }

    @Override
    public Uni<ProviderComment> reply(ActingAccount account, String providerCommentId, String text) {
        return create(account, providerCommentId, providerCommentId, text);
    }

    /** {@code POST /{post-id}/comments}: the same edge as a reply, on the post. */
    @Override
    public Uni<ProviderComment> comment(ActingAccount account, String providerPostId, String text) {
        return create(account, providerPostId, null, text);
    }

    private Uni<ProviderComment> create(ActingAccount account, String objectId, String parentId, String text) {
        return api.comment(account.bearer(), objectId, text)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body = PlatformFailures.body(platform(), account, response, mapper, GraphErrors::read);
                    String id = ProviderAnswers.requiredText(platform(), account, body.path("id"));
                    // As a later read will name it (from.id, the Page's id), so the stored reply never changes author.
                    return new ProviderComment(
                            id, parentId, text, account.name(), account.access().externalId(), true, clock.instant());
                });
    }
}
