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
 * Live Instagram posts through the Instagram API with Instagram Login (the account's external id is the professional
 * account's user id), from a media container that Instagram fetches the media into, then {@code media_publish}; the
 * answer's media id and permalink are the target's.
 * <ul>
 *   <li>Images: the container ({@code image_url}, {@code caption}) is asked about within the attempt
 *       until {@code FINISHED}, then published. One still in progress after {@code status-checks} is retryable (the
 *       unused container expires at Instagram, nothing is published).</li>
 *   <li>Reels: the container ({@code media_type=REELS}, {@code video_url}, {@code caption}, the post's
 *       {@code share_to_feed}) takes Instagram minutes, so the create call answers
 *       {@link PlatformAnswer.Processing} and each later attempt checks the container once: {@code IN_PROGRESS}
 *       waits again, {@code FINISHED} is published, {@code ERROR} is final with Instagram's {@code status},
 *       {@code EXPIRED} retryable with a new container, {@code PUBLISHED} (an earlier {@code media_publish} whose
 *       answer was lost) is looked up by caption. {@code reels-processing-deadline} bounds the wait.</li>
 * </ul>
 * No idempotency key here either, so {@link PublicationLedger} drives the calls; after an unknown outcome the next
 * attempt looks through the account's latest media for the same caption. Nothing is published without
 * {@code media_publish}, so an abandoned container is harmless. Errors otherwise as {@link GraphErrors} reads them.
 * <p>Longer than 300 lines: it is one platform's container protocol, read top to bottom, and images and Reels share
 * its create, status, publish and look-up calls, so no part stands on its own.
 */
@ApplicationScoped
public class InstagramPublisher implements Publisher {

    private final InstagramApi api;
    private final PublicationLedger ledger;
    private final InstagramConfig config;
    private final ObjectMapper mapper;

    public InstagramPublisher(
            @RestClient InstagramApi api, PublicationLedger ledger, InstagramConfig config, ObjectMapper mapper) {
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
        Post.Media media = request.medium();
        if (media == null) {
            // posts-service refuses Instagram posts without media; this only guards against a hand-made event.
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "Instagram posts need an image or a video; nothing was sent to Instagram.",
                                    false,
                                    Map.of())
                            .as(TargetError.CATEGORY_MEDIA, TargetError.ACTION_REPLACE_MEDIA)));
        }
        String caption = request.text() == null ? "" : request.text();
        if (Post.Media.VIDEO.equals(media.type())) {
            ObjectNode container = mapper.createObjectNode()
                    .put("media_type", "REELS")
                    .put("video_url", media.url())
                    .put("caption", caption);
            JsonNode shareToFeed = request.platformOptions() == null
                    ? null
                    : request.platformOptions().get("share_to_feed");
            if (shareToFeed != null && shareToFeed.isBoolean()) {
                container.put("share_to_feed", shareToFeed.asBoolean());
            }
            return ledger.publish(
                    request,
                    new PlatformCalls(
                            access -> createReel(access, container),
                            access -> findPost(access, caption),
                            (access, containerId) -> checkReel(access, containerId, caption),
                            new PlatformCalls.ProcessingLimits(
                                    config.reelsCheckInterval(), config.reelsProcessingDeadline(), true)));
        }
        ObjectNode container =
                mapper.createObjectNode().put("image_url", media.url()).put("caption", caption);
        return ledger.publish(
                request,
                new PlatformCalls(access -> createPost(access, container), access -> findPost(access, caption)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    /** The Reels container; Instagram then fetches and processes the video, which later attempts check. */
    private Uni<PlatformAnswer> createReel(ProviderAccess access, ObjectNode container) {
        return api.createContainer(PlatformResponses.bearer(access), access.externalId(), json(container))
                .map(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        return containerRefused(
                                GraphErrors.answer(response.getStatus(), body, "Instagram refused the video"));
                    }
                    return new PlatformAnswer.Processing(body.get("id").asText());
                });
    }

    /** A failed container creation created nothing that can be published: never an unknown outcome. */
    private static PlatformAnswer containerRefused(PlatformAnswer failure) {
        return failure instanceof PlatformAnswer.Unknown unknown
                ? new PlatformAnswer.Refused(unknown.error())
                : failure;
    }

    /**
     * One look at a Reels container, and its publication when Instagram has finished it. Anything that leaves the
     * container's fate open answers Unknown, so the ledger keeps it for the next check rather than make another.
     */
    private Uni<PlatformAnswer> checkReel(ProviderAccess access, String containerId, String caption) {
        return api.container(PlatformResponses.bearer(access), containerId, "status_code,status")
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200) {
                        return Uni.createFrom()
                                .item(keepContainer(GraphErrors.answer(
                                        response.getStatus(),
                                        body,
                                        "Instagram could not report the video's processing")));
                    }
                    String status = body.path("status_code").asText("");
                    Map<String, Object> details = Map.of("container_status", status, "container_id", containerId);
                    switch (status) {
                        case "IN_PROGRESS":
                            return Uni.createFrom().item(new PlatformAnswer.Processing(containerId));
                        case "FINISHED":
                            return publishContainer(access, containerId)
                                    .map(answer -> answer instanceof PlatformAnswer.Refused refused
                                                    && refused.error().retryable()
                                            // A rate limit on media_publish: the finished container waits for the next
                                            // check.
                                            ? new PlatformAnswer.Unknown(refused.error())
                                            : answer);
                        case "PUBLISHED":
                            // An earlier media_publish went through but its answer was lost: the media is found by its
                            // caption.
                            return findPost(access, caption).map(found -> {
                                if (found instanceof PlatformAnswer.Published
                                        || found instanceof PlatformAnswer.TokenRefused) {
                                    return found;
                                }
                                if (found instanceof PlatformAnswer.NotFound) {
                                    return new PlatformAnswer.Unknown(new TargetError(
                                            TargetError.PUBLICATION_UNCONFIRMED,
                                            "Instagram reports the video's container published, but the account's latest media"
                                                    + " show no post with its caption; check the account before posting again.",
                                            false,
                                            details));
                                }
                                return keepContainer(found);
                            });
                        case "ERROR":
                        case "EXPIRED":
                            // Either way nothing was published; an expired container is replaced by the next attempt.
                            return Uni.createFrom()
                                    .item(new PlatformAnswer.Refused(GraphErrors.containerFailed(
                                            status,
                                            body.path("status").asText(null),
                                            "Instagram could not process the video",
                                            details)));
                        default:
                            return Uni.createFrom()
                                    .item(new PlatformAnswer.Unknown(new TargetError(
                                            TargetError.PROVIDER_ERROR,
                                            "Instagram reported the video's container as '" + status + "'.",
                                            true,
                                            details)));
                    }
                });
    }

    /** A failed read about a container says nothing about the container: it is kept, the error fails the attempt. */
    private static PlatformAnswer keepContainer(PlatformAnswer failure) {
        if (failure instanceof PlatformAnswer.Refused refused) {
            return new PlatformAnswer.Unknown(refused.error());
        }
        return failure;
    }

    private Uni<PlatformAnswer> createPost(ProviderAccess access, ObjectNode container) {
        String user = access.externalId();
        return api.createContainer(PlatformResponses.bearer(access), user, json(container))
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        // No container, so nothing can have been published.
                        return Uni.createFrom()
                                .item(containerRefused(
                                        GraphErrors.answer(response.getStatus(), body, "Instagram refused the image")));
                    }
                    String containerId = body.get("id").asText();
                    return awaitFinished(access, containerId, 1)
                            .flatMap(ready -> ready != null
                                    ? Uni.createFrom().item(ready)
                                    : publishContainer(access, containerId));
                });
    }

    /** Null once the container is FINISHED; else the answer that ends the attempt. */
    private Uni<PlatformAnswer> awaitFinished(ProviderAccess access, String containerId, int check) {
        return api.container(PlatformResponses.bearer(access), containerId, "status_code,status")
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200) {
                        PlatformAnswer failure = GraphErrors.answer(
                                response.getStatus(), body, "Instagram could not report the image's processing");
                        return Uni.createFrom()
                                .item(
                                        failure instanceof PlatformAnswer.Unknown unknown
                                                ? new PlatformAnswer.Refused(unknown.error())
                                                : failure);
                    }
                    String status = body.path("status_code").asText("");
                    if ("FINISHED".equals(status)) {
                        return Uni.createFrom().nullItem();
                    }
                    Map<String, Object> details = Map.of("container_status", status, "container_id", containerId);
                    if ("ERROR".equals(status) || "EXPIRED".equals(status)) {
                        return Uni.createFrom()
                                .item(new PlatformAnswer.Refused(GraphErrors.containerFailed(
                                        status,
                                        body.path("status").asText(null),
                                        "Instagram could not process the image",
                                        details)));
                    }
                    if (check >= config.statusChecks()) {
                        return Uni.createFrom()
                                .item(new PlatformAnswer.Refused(new TargetError(
                                        TargetError.PROVIDER_ERROR,
                                        "Instagram was still processing the image; the next attempt starts again.",
                                        true,
                                        details)));
                    }
                    return Uni.createFrom()
                            .voidItem()
                            .onItem()
                            .delayIt()
                            .by(config.statusInterval())
                            .flatMap(waited -> awaitFinished(access, containerId, check + 1));
                });
    }

    private Uni<PlatformAnswer> publishContainer(ProviderAccess access, String containerId) {
        String user = access.externalId();
        return api.publish(
                        PlatformResponses.bearer(access),
                        user,
                        json(mapper.createObjectNode().put("creation_id", containerId)))
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        return Uni.createFrom()
                                .item(GraphErrors.answer(
                                        response.getStatus(), body, "Instagram refused to publish the media"));
                    }
                    String mediaId = body.get("id").asText();
                    // The permalink is a nicety: published is published, with or without it.
                    return api.media(PlatformResponses.bearer(access), mediaId, "permalink")
                            .map(media -> {
                                JsonNode fields = PlatformResponses.body(mapper, media);
                                return (PlatformAnswer) new PlatformAnswer.Published(
                                        mediaId,
                                        media.getStatus() == 200
                                                ? fields.path("permalink").asText(null)
                                                : null);
                            })
                            .onFailure()
                            .recoverWithItem(new PlatformAnswer.Published(mediaId, null));
                });
    }

    private Uni<PlatformAnswer> findPost(ProviderAccess access, String caption) {
        if (caption.isBlank()) {
            return Uni.createFrom().item(PlatformResponses.unconfirmed("Instagram", "the account", Map.of()));
        }
        return api.recentMedia(
                        PlatformResponses.bearer(access),
                        access.externalId(),
                        "id,caption,permalink,timestamp",
                        config.reconcileWindow())
                .map(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200) {
                        PlatformAnswer failure = GraphErrors.answer(
                                response.getStatus(), body, "Instagram could not list the account's media");
                        return failure instanceof PlatformAnswer.Refused refused
                                        && !refused.error().retryable()
                                ? PlatformResponses.unconfirmed(
                                        "Instagram",
                                        "the account",
                                        refused.error().details())
                                : failure;
                    }
                    for (JsonNode item : body.path("data")) {
                        if (caption.equals(item.path("caption").asText(null)) && item.hasNonNull("id")) {
                            return new PlatformAnswer.Published(
                                    item.get("id").asText(),
                                    item.path("permalink").asText(null));
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
