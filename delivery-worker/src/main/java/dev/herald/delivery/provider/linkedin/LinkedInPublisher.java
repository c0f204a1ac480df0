package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.client.AccountsClient;
import dev.herald.delivery.config.LinkedInConfig;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.repository.ProviderPublicationRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Live LinkedIn posts through the versioned Posts API, as the member or organization the account is (its URN is the
 * account's external id). Text posts for now; a post with media fails with {@code publisher_unavailable} and
 * nothing is sent (decision 115).
 * <p>
 * LinkedIn takes no idempotency key, so the publisher remembers each target's calls ({@code provider_publications}):
 * a token already published answers its post; a call whose outcome is unknown (no answer, a broken connection, a
 * 5xx, a crash) is followed by a look through the author's latest posts for the same commentary before anything is
 * published again, and when LinkedIn does not let Herald look (members' posts need a permission LinkedIn grants few
 * apps), the target fails as {@code publication_unconfirmed} rather than risk a second post.
 * <p>
 * A refused token (401) is replaced once through accounts-service, which refreshes it; a revoked grant fails the
 * target with {@code account_disconnected}. 429 and 5xx are retryable, other 4xx are not.
 */
@ApplicationScoped
public class LinkedInPublisher implements Publisher {
    static final String PUBLICATION_UNCONFIRMED = "publication_unconfirmed";
    private static final Logger LOG = Logger.getLogger(LinkedInPublisher.class);
    private static final String POST_URL = "https://www.linkedin.com/feed/update/";

    private final LinkedInApi api;
    private final AccountsClient accounts;
    private final ProviderPublicationRepository publications;
    private final LinkedInConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public LinkedInPublisher(@RestClient LinkedInApi api, AccountsClient accounts, ProviderPublicationRepository publications,
                             LinkedInConfig config, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.accounts = accounts;
        this.publications = publications;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
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
        return accounts.access(request.workspaceId(), request.mode(), request.accountId(), null).flatMap(access -> {
            if (!access.granted()) {
                return Uni.createFrom().item(PublishOutcome.failed(access.refusal()));
            }
            return publications.startCall(request.idempotencyToken(), Platform.LINKEDIN.wireName(), Timestamps.now(clock))
                    .flatMap(before -> {
                        if (ProviderPublicationRepository.PUBLISHED.equals(before.state())) {
                            return Uni.createFrom().item(PublishOutcome.published(before.providerPostId(), before.url()));
                        }
                        if (ProviderPublicationRepository.CALLING.equals(before.state())) {
                            return reconcile(request, access.access(), true);
                        }
                        return create(request, access.access(), true);
                    });
        });
    }

    /** An earlier call's outcome is unknown: find its post among the author's latest, or publish if there is none. */
    private Uni<PublishOutcome> reconcile(PublishRequest request, ProviderAccess access, boolean mayRefresh) {
        String commentary = LinkedInCommentary.of(request.text());
        return api.postsByAuthor(bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, "author",
                        URLEncoder.encode(access.externalId(), StandardCharsets.UTF_8), config.reconcileWindow(), "LAST_MODIFIED")
                .flatMap(response -> {
                    int status = response.getStatus();
                    JsonNode body = read(response);
                    if (status == 200) {
                        for (JsonNode post : body.path("elements")) {
                            if (commentary.equals(post.path("commentary").asText(null)) && post.hasNonNull("id")) {
                                String urn = post.get("id").asText();
                                LOG.infof("post %s to account %s: an earlier LinkedIn call had published it as %s", request.postId(),
                                        request.accountId(), urn);
                                return recordPublished(request, urn);
                            }
                        }
                        return create(request, access, mayRefresh);
                    }
                    if (status == 401 && mayRefresh) {
                        return withFreshToken(request, access, fresh -> reconcile(request, fresh, false));
                    }
                    if (status == 403) {
                        return Uni.createFrom().item(PublishOutcome.failed(new TargetError(PUBLICATION_UNCONFIRMED,
                                "An earlier call to LinkedIn got no answer, and LinkedIn does not let Herald read this author's"
                                        + " posts to learn whether it published; check the profile before posting again.",
                                false, details(status, body))));
                    }
                    return Uni.createFrom().item(failure(status, response, body, "LinkedIn could not list the author's posts"));
                });
    }

    private Uni<PublishOutcome> create(PublishRequest request, ProviderAccess access, boolean mayRefresh) {
        String body;
        try {
            body = mapper.writeValueAsString(postOf(access.externalId(), LinkedInCommentary.of(request.text())));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a LinkedIn post cannot be serialized", e));
        }
        return api.createPost(bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, body).flatMap(response -> {
            int status = response.getStatus();
            if (status == 201 || status == 200) {
                String urn = response.getHeaderString("x-restli-id");
                return recordPublished(request, urn != null ? urn : response.getHeaderString("x-linkedin-id"));
            }
            JsonNode answer = read(response);
            if (status == 401 && mayRefresh) {
                // Refused before anything was created; the token is replaced and the call made once more.
                return withFreshToken(request, access, fresh -> create(request, fresh, false));
            }
            PublishOutcome failed = status == 401
                    ? PublishOutcome.failed(new TargetError(TargetError.PROVIDER_ERROR,
                            "LinkedIn refused a freshly refreshed access token.", false, details(status, answer)))
                    : failure(status, response, answer, "LinkedIn refused the post");
            // A 4xx created nothing, so the next attempt may call again; after a 5xx the next attempt looks first.
            return status < 500
                    ? publications.refused(request.idempotencyToken(), Timestamps.now(clock)).replaceWith(failed)
                    : Uni.createFrom().item(failed);
        });
    }

    private Uni<PublishOutcome> withFreshToken(PublishRequest request, ProviderAccess refused,
                                               java.util.function.Function<ProviderAccess, Uni<PublishOutcome>> call) {
        return accounts.access(request.workspaceId(), request.mode(), request.accountId(), refused.accessToken())
                .flatMap(fresh -> fresh.granted() ? call.apply(fresh.access()) : Uni.createFrom().item(PublishOutcome.failed(fresh.refusal())));
    }

    private Uni<PublishOutcome> recordPublished(PublishRequest request, String urn) {
        String url = urn == null ? null : POST_URL + urn + "/";
        return publications.published(request.idempotencyToken(), urn, url, Timestamps.now(clock))
                .replaceWith(PublishOutcome.published(urn, url));
    }

    private ObjectNode postOf(String author, String commentary) {
        ObjectNode post = mapper.createObjectNode();
        post.put("author", author);
        post.put("commentary", commentary);
        post.put("visibility", "PUBLIC");
        ObjectNode distribution = post.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        post.put("lifecycleState", "PUBLISHED");
        post.put("isReshareDisabledByAuthor", false);
        return post;
    }

    /** 429 and 5xx are worth another attempt; other refusals are LinkedIn's final word on this post. */
    private static PublishOutcome failure(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = details(status, body);
        String retryAfter = response.getHeaderString("Retry-After");
        if (status == 429 && retryAfter != null && retryAfter.strip().matches("\\d{1,6}")) {
            details.put("retry_after_seconds", Integer.parseInt(retryAfter.strip()));
        }
        String message = body.path("message").asText("");
        return PublishOutcome.failed(new TargetError(TargetError.PROVIDER_ERROR,
                what + " (HTTP " + status + (message.isEmpty() ? "" : ": " + abbreviate(message)) + ").",
                status == 429 || status >= 500, details));
    }

    private static Map<String, Object> details(int status, JsonNode body) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.hasNonNull("serviceErrorCode")) {
            details.put("provider_code", body.get("serviceErrorCode").asText());
        }
        return details;
    }

    private JsonNode read(Response response) {
        try {
            String text = response.readEntity(String.class);
            JsonNode body = text == null || text.isBlank() ? null : mapper.readTree(text);
            return body == null ? mapper.createObjectNode() : body;
        } catch (JsonProcessingException | RuntimeException e) {
            return mapper.createObjectNode();
        }
    }

    private static String bearer(ProviderAccess access) {
        return "Bearer " + access.accessToken();
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
