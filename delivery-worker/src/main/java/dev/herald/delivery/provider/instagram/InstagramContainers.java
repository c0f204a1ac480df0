package dev.herald.delivery.provider.instagram;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.InstagramConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.meta.GraphErrors;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Instagram's media container calls, as every kind of post uses them: a container made, its {@code status_code} asked
 * (waited for within the attempt, or looked at once per attempt), {@code media_publish}, and the account's latest media
 * looked through for a caption. {@code what} names the media in messages ("the image", "the carousel").
 */
@ApplicationScoped
public class InstagramContainers {
    private final InstagramApi api;
    private final InstagramConfig config;
    private final ObjectMapper mapper;

    public InstagramContainers(@RestClient InstagramApi api, InstagramConfig config, ObjectMapper mapper) {
        this.api = api;
        this.config = config;
        this.mapper = mapper;
    }

    /**
     * A container made from {@code body}: {@link PlatformAnswer.Processing} with its id, or the refusal. A container
     * that could not be made published nothing, so a failure is never an unknown outcome.
     */
    Uni<PlatformAnswer> create(ProviderAccess access, ObjectNode body, String what) {
        return api.createContainer(PlatformResponses.bearer(access), access.externalId(), json(body))
                .map(response -> {
                    JsonNode answer = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !answer.hasNonNull("id")) {
                        return refusedOutright(
                                GraphErrors.answer(response.getStatus(), answer, "Instagram refused " + what));
                    }
                    return new PlatformAnswer.Processing(answer.get("id").asText());
                });
    }

    /** The container waited for within the attempt, then published. */
    Uni<PlatformAnswer> publishWhenFinished(ProviderAccess access, String containerId, String what) {
        return awaitFinished(access, containerId, what, 1)
                .flatMap(ready -> ready != null ? Uni.createFrom().item(ready) : publish(access, containerId));
    }

    /**
     * Null once the container is {@code FINISHED}; else the answer that ends the attempt. One still in progress after
     * {@code status-checks} is a retryable refusal: nothing is published without {@code media_publish}.
     */
    Uni<PlatformAnswer> awaitFinished(ProviderAccess access, String containerId, String what, int check) {
        return status(access, containerId, what).flatMap(status -> {
            if (status.failure() != null) {
                return Uni.createFrom().item(refusedOutright(status.failure()));
            }
            if ("FINISHED".equals(status.code())) {
                return Uni.createFrom().nullItem();
            }
            if ("ERROR".equals(status.code()) || "EXPIRED".equals(status.code())) {
                return Uni.createFrom().item(status.failed(what));
            }
            if (check >= config.statusChecks()) {
                return Uni.createFrom()
                        .item(new PlatformAnswer.Refused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "Instagram was still processing " + what + "; the next attempt starts again.",
                                true,
                                status.details())));
            }
            return Uni.createFrom()
                    .voidItem()
                    .onItem()
                    .delayIt()
                    .by(config.statusInterval())
                    .flatMap(waited -> awaitFinished(access, containerId, what, check + 1));
        });
    }

    /**
     * One look at a container an earlier attempt left processing, and its publication when Instagram has finished it.
     * Anything that leaves the container's fate open answers Unknown, so the ledger keeps it for the next check rather
     * than make another.
     */
    Uni<PlatformAnswer> check(ProviderAccess access, String containerId, String caption, String what) {
        return status(access, containerId, what).flatMap(status -> {
            if (status.failure() != null) {
                return Uni.createFrom().item(keepContainer(status.failure()));
            }
            switch (status.code()) {
                case "IN_PROGRESS":
                    return Uni.createFrom().item(new PlatformAnswer.Processing(containerId));
                case "FINISHED":
                    // A rate limit on media_publish: the finished container waits for the next check.
                    return publish(access, containerId).map(PlatformResponses::keptForNextCheck);
                case "PUBLISHED":
                    // An earlier media_publish went through but its answer was lost: the media is found by its caption.
                    return find(access, caption).map(found -> {
                        if (found instanceof PlatformAnswer.Published || found instanceof PlatformAnswer.TokenRefused) {
                            return found;
                        }
                        if (found instanceof PlatformAnswer.NotFound) {
                            return new PlatformAnswer.Unknown(new TargetError(
                                    TargetError.PUBLICATION_UNCONFIRMED,
                                    "Instagram reports " + what + "'s container published, but the account's latest"
                                            + " media show no post with its caption; check the account before posting"
                                            + " again.",
                                    false,
                                    status.details()));
                        }
                        return keepContainer(found);
                    });
                case "ERROR":
                case "EXPIRED":
                    // Either way nothing was published; an expired container is replaced by the next attempt.
                    return Uni.createFrom().item(status.failed(what));
                default:
                    return Uni.createFrom()
                            .item(new PlatformAnswer.Unknown(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "Instagram reported " + what + "'s container as '" + status.code() + "'.",
                                    true,
                                    status.details())));
            }
        });
    }

    /** A container's {@code status_code}, or the answer of a read that failed ({@link Status#failure}). */
    Uni<Status> status(ProviderAccess access, String containerId, String what) {
        return api.container(PlatformResponses.bearer(access), containerId, "status_code,status")
                .map(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200) {
                        return new Status(
                                containerId,
                                "",
                                null,
                                GraphErrors.answer(
                                        response.getStatus(),
                                        body,
                                        "Instagram could not report " + what + "'s processing"));
                    }
                    return new Status(
                            containerId,
                            body.path("status_code").asText(""),
                            body.path("status").asText(null),
                            null);
                });
    }

    /** A container's processing as Instagram reports it; {@code failure} when Instagram could not be asked. */
    record Status(String containerId, String code, String text, PlatformAnswer failure) {
        Map<String, Object> details() {
            return Map.of("container_status", code, "container_id", containerId);
        }

        /** ERROR is final; EXPIRED is retryable (the next attempt makes a new container). Nothing was published. */
        PlatformAnswer.Refused failed(String what) {
            return new PlatformAnswer.Refused(
                    GraphErrors.containerFailed(code, text, "Instagram could not process " + what, details()));
        }
    }

    Uni<PlatformAnswer> publish(ProviderAccess access, String containerId) {
        return api.publish(
                        PlatformResponses.bearer(access),
                        access.externalId(),
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

    /**
     * The account's latest media with {@code caption}. Without a caption (a story takes none) nothing can recognise
     * the post: the look answers a final {@code publication_unconfirmed} rather than guess.
     */
    Uni<PlatformAnswer> find(ProviderAccess access, String caption) {
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

    /** A failed call that made nothing publishable (a container, a status read): never an unknown outcome. */
    static PlatformAnswer refusedOutright(PlatformAnswer failure) {
        return failure instanceof PlatformAnswer.Unknown unknown
                ? new PlatformAnswer.Refused(unknown.error())
                : failure;
    }

    /** A failed read about a container says nothing about the container: it is kept, the error fails the attempt. */
    static PlatformAnswer keepContainer(PlatformAnswer failure) {
        return failure instanceof PlatformAnswer.Refused refused
                ? new PlatformAnswer.Unknown(refused.error())
                : failure;
    }

    String json(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an Instagram request cannot be serialized", e);
        }
    }
}
