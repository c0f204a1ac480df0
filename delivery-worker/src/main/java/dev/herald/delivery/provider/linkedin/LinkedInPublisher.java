package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.LinkedInConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Live LinkedIn posts through the versioned Posts API, as the member or organization the account is (its URN is the
 * account's external id). Text posts for now; a post with media fails with {@code publisher_unavailable} and
 * nothing is sent (decision 115).
 * <p>
 * LinkedIn takes no idempotency key, so {@link PublicationLedger} drives the calls: after a call whose outcome is
 * unknown, the next attempt looks through the author's latest posts for the same commentary before anything is
 * published again, and when LinkedIn does not let Herald look (members' posts need a permission LinkedIn grants few
 * apps), the target fails as {@code publication_unconfirmed} rather than risk a second post. 429 and 5xx are
 * retryable, other 4xx are not; a refused token (401) is replaced once.
 */
@ApplicationScoped
public class LinkedInPublisher implements Publisher {
    private static final String POST_URL = "https://www.linkedin.com/feed/update/";

    private final LinkedInApi api;
    private final PublicationLedger ledger;
    private final LinkedInConfig config;
    private final ObjectMapper mapper;

    public LinkedInPublisher(@RestClient LinkedInApi api, PublicationLedger ledger, LinkedInConfig config, ObjectMapper mapper) {
        this.api = api;
        this.ledger = ledger;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.LINKEDIN;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        if (request.media() != null) {
            return Uni.createFrom().item(PublishOutcome.failed(new TargetError(TargetError.PUBLISHER_UNAVAILABLE,
                    "LinkedIn image and video posts are not available in this Herald build yet (text posts are); nothing"
                            + " was sent to LinkedIn.", false, Map.of("platform", "linkedin", "media_type", request.media().type()))));
        }
        String commentary = LinkedInCommentary.of(request.text());
        String visibility = request.platformOptions().path("visibility").asText("PUBLIC");
        return ledger.publish(request, new PlatformCalls(
                access -> createPost(access, commentary, visibility),
                access -> findPost(access, commentary)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPost(ProviderAccess access, String commentary, String visibility) {
        String body;
        try {
            body = mapper.writeValueAsString(postOf(access.externalId(), commentary, visibility));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a LinkedIn post cannot be serialized", e));
        }
        return api.createPost(PlatformResponses.bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, body).map(response -> {
            int status = response.getStatus();
            if (status == 201 || status == 200) {
                String urn = response.getHeaderString("x-restli-id");
                return published(urn != null ? urn : response.getHeaderString("x-linkedin-id"));
            }
            JsonNode answer = PlatformResponses.body(mapper, response);
            if (status == 401) {
                return new PlatformAnswer.TokenRefused(new TargetError(TargetError.PROVIDER_ERROR,
                        "LinkedIn refused the access token (HTTP 401), also after it was refreshed.", false, details(status, answer)));
            }
            TargetError error = error(status, response, answer, "LinkedIn refused the post");
            // A 4xx created nothing; after a 5xx LinkedIn may have created the post, so the next attempt looks first.
            return status < 500 ? new PlatformAnswer.Refused(error) : new PlatformAnswer.Unknown(error);
        });
    }

    private Uni<PlatformAnswer> findPost(ProviderAccess access, String commentary) {
        return api.postsByAuthor(PlatformResponses.bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, "author",
                        URLEncoder.encode(access.externalId(), StandardCharsets.UTF_8), config.reconcileWindow(), "LAST_MODIFIED")
                .map(response -> {
                    int status = response.getStatus();
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (status == 200) {
                        for (JsonNode post : body.path("elements")) {
                            if (commentary.equals(post.path("commentary").asText(null)) && post.hasNonNull("id")) {
                                return published(post.get("id").asText());
                            }
                        }
                        return new PlatformAnswer.NotFound();
                    }
                    if (status == 401) {
                        return new PlatformAnswer.TokenRefused(new TargetError(TargetError.PROVIDER_ERROR,
                                "LinkedIn refused the access token (HTTP 401), also after it was refreshed.", false, details(status, body)));
                    }
                    if (status == 403) {
                        // Members' posts need r_member_social, which LinkedIn grants few apps.
                        return PlatformResponses.unconfirmed("LinkedIn", "the author's profile", details(status, body));
                    }
                    return new PlatformAnswer.Unknown(error(status, response, body, "LinkedIn could not list the author's posts"));
                });
    }

    private static PlatformAnswer published(String urn) {
        return new PlatformAnswer.Published(urn, urn == null ? null : POST_URL + urn + "/");
    }

    /** {@code visibility}: the post's LinkedIn option ({@code PUBLIC}, the default, or {@code CONNECTIONS}). */
    private ObjectNode postOf(String author, String commentary, String visibility) {
        ObjectNode post = mapper.createObjectNode();
        post.put("author", author);
        post.put("commentary", commentary);
        post.put("visibility", visibility);
        ObjectNode distribution = post.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        post.put("lifecycleState", "PUBLISHED");
        post.put("isReshareDisabledByAuthor", false);
        return post;
    }

    /** 429 and 5xx are worth another attempt; other refusals are LinkedIn's final word on this post. */
    private static TargetError error(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = details(status, body);
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String message = body.path("message").asText("");
        return new TargetError(TargetError.PROVIDER_ERROR,
                PlatformResponses.message(what, status, message),
                status == 429 || status >= 500, details);
    }

    private static Map<String, Object> details(int status, JsonNode body) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.hasNonNull("serviceErrorCode")) {
            details.put("provider_code", body.get("serviceErrorCode").asText());
        }
        return details;
    }
}
