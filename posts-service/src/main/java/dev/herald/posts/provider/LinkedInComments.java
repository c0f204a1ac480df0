package dev.herald.posts.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Platform;
import dev.herald.posts.config.CommentsConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * LinkedIn comments through the versioned Comments API ({@code LinkedIn-Version} as the publisher sends it),
 * acting as the account's member or organization URN (its external id). Comments are identified by
 * their comment URN ({@code urn:li:comment:(<activity urn>,<id>)}), which is what a reply targets. LinkedIn names a
 * commenter only by URN (names need profile APIs Herald is not granted): the URN is the username and others show as
 * "LinkedIn member".
 */
@ApplicationScoped
public class LinkedInComments implements CommentsProvider {
    static final int PAGE_SIZE = 100;
    static final String OTHER_MEMBER = "LinkedIn member";
    private static final Pattern COMMENT_URN =
            Pattern.compile("^urn:li:comment:\\((urn:li:[A-Za-z]+:[^,]+),([^)]+)\\)$");

    private final LinkedInCommentsApi api;
    private final CommentsConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public LinkedInComments(
            @RestClient LinkedInCommentsApi api, CommentsConfig config, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Platform platform() {
        return Platform.LINKEDIN;
    }

    @Override
    public Uni<List<ProviderComment>> read(ActingAccount account, String providerPostId) {
        return api.comments(
                        account.bearer(),
                        config.linkedinApiVersion(),
                        LinkedInCommentsApi.PROTOCOL_VERSION,
                        encode(providerPostId),
                        PAGE_SIZE)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, LinkedInComments::error);
                    Instant now = clock.instant();
                    List<ProviderComment> comments = new ArrayList<>();
                    for (JsonNode item : body.path("elements")) {
                        String urn = commentUrn(item);
                        if (urn == null) {
                            continue;
                        }
                        String actor = item.path("actor").asText("");
                        boolean own = actor.equals(account.access().externalId());
                        String parent = item.path("parentComment").isTextual()
                                ? item.get("parentComment").asText()
                                : null;
                        comments.add(new ProviderComment(
                                urn,
                                parent,
                                item.path("message").path("text").asText(""),
                                own ? account.name() : OTHER_MEMBER,
                                actor,
                                own,
                                millis(item.path("created").path("time"), now)));
                    }
                    return comments;
                });
    }

    @Override
    public Uni<ProviderComment> reply(ActingAccount account, String providerCommentId, String text) {
        Matcher parts = COMMENT_URN.matcher(providerCommentId);
        // The reply's object is the post's activity, which the parent's comment URN carries.
        String object = parts.matches() ? parts.group(1) : providerCommentId;
        return create(account, providerCommentId, object, providerCommentId, text);
    }

    /** {@code POST /rest/socialActions/{post urn}/comments}, the post as the comment's object and no parent. */
    @Override
    public Uni<ProviderComment> comment(ActingAccount account, String providerPostId, String text) {
        return create(account, providerPostId, providerPostId, null, text);
    }

    /**
     * A comment on {@code urn} (a post, or the comment {@code parentComment} replies to) about {@code object}; its URN
     * is the answer's, else built from {@code x-restli-id} and the object.
     */
    private Uni<ProviderComment> create(
            ActingAccount account, String urn, String object, String parentComment, String text) {
        ObjectNode request = mapper.createObjectNode();
        request.put("actor", account.access().externalId());
        request.put("object", object);
        if (parentComment != null) {
            request.put("parentComment", parentComment);
        }
        request.putObject("message").put("text", text);
        String body;
        try {
            body = mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a reply cannot be serialized", e));
        }
        return api.create(
                        account.bearer(),
                        config.linkedinApiVersion(),
                        LinkedInCommentsApi.PROTOCOL_VERSION,
                        encode(urn),
                        body)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    String restliId = response.getHeaderString("x-restli-id");
                    JsonNode created =
                            PlatformFailures.body(platform(), account, response, mapper, LinkedInComments::error);
                    String commentUrn = commentUrn(created);
                    if (commentUrn == null && restliId != null) {
                        commentUrn = restliId.startsWith("urn:")
                                ? restliId
                                : "urn:li:comment:(" + object + "," + restliId + ")";
                    }
                    commentUrn = ProviderAnswers.requiredText(
                            platform(),
                            account,
                            commentUrn == null
                                    ? mapper.nullNode()
                                    : mapper.getNodeFactory().textNode(commentUrn));
                    return new ProviderComment(
                            commentUrn,
                            parentComment,
                            text,
                            account.name(),
                            account.access().externalId(),
                            true,
                            millis(created.path("created").path("time"), clock.instant()));
                });
    }

    /** The comment's URN: {@code commentUrn}, or built from {@code object} and {@code id}. */
    private static String commentUrn(JsonNode item) {
        if (item.path("commentUrn").isTextual()) {
            return item.get("commentUrn").asText();
        }
        if (item.path("id").isTextual() && item.path("object").isTextual()) {
            return "urn:li:comment:(" + item.get("object").asText() + ","
                    + item.get("id").asText() + ")";
        }
        return null;
    }

    private static Instant millis(JsonNode value, Instant fallback) {
        return value.isNumber() ? Instant.ofEpochMilli(value.asLong()) : fallback;
    }

    static String encode(String urn) {
        return URLEncoder.encode(urn, StandardCharsets.UTF_8);
    }

    static PlatformFailures.PlatformError error(int status, JsonNode body) {
        String code = body.hasNonNull("serviceErrorCode")
                ? body.get("serviceErrorCode").asText()
                : body.path("code").asText(null);
        String message = body.path("message").asText("");
        if (status == 401) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.TOKEN_REFUSED, code, message);
        }
        if (status == 429) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.RATE_LIMITED, code, message);
        }
        return new PlatformFailures.PlatformError(PlatformFailures.Kind.FAILED, code, message);
    }
}
