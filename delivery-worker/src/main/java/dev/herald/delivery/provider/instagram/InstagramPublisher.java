package dev.herald.delivery.provider.instagram;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.InstagramConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.meta.GraphErrors;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Live Instagram image posts through the Instagram API with Instagram Login (the account's external id is the
 * professional account's user id): a media container from the image URL (Instagram fetches it) with the caption,
 * its status asked until {@code FINISHED}, then {@code media_publish}; the answer's media id and permalink are the
 * target's (decision 118). Reels need minutes of processing at Instagram, longer than one delivery attempt, and come
 * with the processing slice: until then video posts fail {@code publisher_unavailable}.
 * <p>
 * No idempotency key here either, so {@link PublicationLedger} drives the calls; after an unknown outcome the next
 * attempt looks through the account's latest media for the same caption. A container that fails processing is a
 * final refusal with Instagram's status; one still in progress after {@code status-checks} is retryable (the
 * unused container expires at Instagram, nothing is published). Errors otherwise as {@link GraphErrors} reads them.
 */
@ApplicationScoped
public class InstagramPublisher implements Publisher {

    private final InstagramApi api;
    private final PublicationLedger ledger;
    private final InstagramConfig config;
    private final ObjectMapper mapper;

    public InstagramPublisher(@RestClient InstagramApi api, PublicationLedger ledger, InstagramConfig config, ObjectMapper mapper) {
        this.api = api;
        this.ledger = ledger;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.INSTAGRAM;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.media();
        if (media == null || !Post.Media.IMAGE.equals(media.type())) {
            return Uni.createFrom().item(PublishOutcome.failed(new TargetError(TargetError.PUBLISHER_UNAVAILABLE,
                    "Instagram Reels are not available in this Herald build yet (image posts are); nothing was sent to"
                            + " Instagram.", false, Map.of("platform", "instagram", "media_type", media == null ? "none" : media.type()))));
        }
        String caption = request.text() == null ? "" : request.text();
        ObjectNode container = mapper.createObjectNode().put("image_url", media.url()).put("caption", caption);
        return ledger.publish(request, new PlatformCalls(
                access -> createPost(access, container),
                access -> findPost(access, caption)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPost(ProviderAccess access, ObjectNode container) {
        String user = access.externalId();
        return api.createContainer(PlatformResponses.bearer(access), user, json(container)).flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                // No container, so nothing can have been published.
                PlatformAnswer failure = GraphErrors.answer(response.getStatus(), body, "Instagram refused the image");
                return Uni.createFrom().item(failure instanceof PlatformAnswer.Unknown unknown
                        ? new PlatformAnswer.Refused(unknown.error()) : failure);
            }
            String containerId = body.get("id").asText();
            return awaitFinished(access, containerId, 1).flatMap(ready -> ready != null ? Uni.createFrom().item(ready)
                    : publishContainer(access, containerId));
        });
    }

    /** Null once the container is FINISHED; else the answer that ends the attempt. */
    private Uni<PlatformAnswer> awaitFinished(ProviderAccess access, String containerId, int check) {
        return api.container(PlatformResponses.bearer(access), containerId, "status_code,status").flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            if (response.getStatus() != 200) {
                PlatformAnswer failure = GraphErrors.answer(response.getStatus(), body, "Instagram could not report the image's processing");
                return Uni.createFrom().item(failure instanceof PlatformAnswer.Unknown unknown
                        ? new PlatformAnswer.Refused(unknown.error()) : failure);
            }
            String status = body.path("status_code").asText("");
            if ("FINISHED".equals(status)) {
                return Uni.createFrom().nullItem();
            }
            Map<String, Object> details = Map.of("container_status", status, "container_id", containerId);
            if ("ERROR".equals(status) || "EXPIRED".equals(status)) {
                return Uni.createFrom().item(new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR,
                        "Instagram could not process the image (" + status + (body.hasNonNull("status") ? ": " + body.get("status").asText() : "")
                                + ").", "EXPIRED".equals(status), details)));
            }
            if (check >= config.statusChecks()) {
                return Uni.createFrom().item(new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR,
                        "Instagram was still processing the image; the next attempt starts again.", true, details)));
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(config.statusInterval())
                    .flatMap(waited -> awaitFinished(access, containerId, check + 1));
        });
    }

    private Uni<PlatformAnswer> publishContainer(ProviderAccess access, String containerId) {
        String user = access.externalId();
        return api.publish(PlatformResponses.bearer(access), user, json(mapper.createObjectNode().put("creation_id", containerId)))
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        return Uni.createFrom().item(GraphErrors.answer(response.getStatus(), body, "Instagram refused to publish the image"));
                    }
                    String mediaId = body.get("id").asText();
                    // The permalink is a nicety: published is published, with or without it.
                    return api.media(PlatformResponses.bearer(access), mediaId, "permalink")
                            .map(media -> {
                                JsonNode fields = PlatformResponses.body(mapper, media);
                                return (PlatformAnswer) new PlatformAnswer.Published(mediaId,
                                        media.getStatus() == 200 ? fields.path("permalink").asText(null) : null);
                            })
                            .onFailure().recoverWithItem(new PlatformAnswer.Published(mediaId, null));
                });
    }

    private Uni<PlatformAnswer> findPost(ProviderAccess access, String caption) {
        if (caption.isBlank()) {
            return Uni.createFrom().item(PlatformResponses.unconfirmed("Instagram", "the account", Map.of()));
        }
        return api.recentMedia(PlatformResponses.bearer(access), access.externalId(), "id,caption,permalink,timestamp",
                config.reconcileWindow()).map(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            if (response.getStatus() != 200) {
                PlatformAnswer failure = GraphErrors.answer(response.getStatus(), body, "Instagram could not list the account's media");
                return failure instanceof PlatformAnswer.Refused refused && !refused.error().retryable()
                        ? PlatformResponses.unconfirmed("Instagram", "the account", refused.error().details()) : failure;
            }
            for (JsonNode item : body.path("data")) {
                if (caption.equals(item.path("caption").asText(null)) && item.hasNonNull("id")) {
                    return new PlatformAnswer.Published(item.get("id").asText(), item.path("permalink").asText(null));
                }
            }
            return new PlatformAnswer.NotFound();
        });
    }

    private String json(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an Instagram request cannot be serialized", e);
        }
    }
}
