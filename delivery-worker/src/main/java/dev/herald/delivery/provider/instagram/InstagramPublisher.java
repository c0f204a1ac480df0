package dev.herald.delivery.provider.instagram;

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
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.meta.GraphErrors;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Live Instagram posts through the Instagram API with Instagram Login (the account's external id is the professional
 * account's user id), from media containers that Instagram fetches the media into, then {@code media_publish}; the
 * answer's media id and permalink are the target's. What is made follows {@code platform_options.instagram.format}
 * ({@code feed} when absent) and the post's media:
 * <ul>
 *   <li>feed, one image: the container ({@code image_url}, {@code caption}) is asked about within the attempt
 *       until {@code FINISHED}, then published. One still in progress after {@code status-checks} is retryable (the
 *       unused container expires at Instagram, nothing is published).</li>
 *   <li>feed, 2-10 items: a carousel ({@link InstagramCarousel}).</li>
 *   <li>reel, or feed with one video: the Reels container ({@code media_type=REELS}, {@code video_url},
 *       {@code caption}, the post's {@code share_to_feed}) takes Instagram minutes, so the create call answers
 *       {@link PlatformAnswer.Processing} and each later attempt checks the container once
 *       ({@link InstagramContainers#check}). {@code reels-processing-deadline} bounds the wait.</li>
 *   <li>story: a {@code media_type=STORIES} container with the first item's {@code image_url} (published within the
 *       attempt) or {@code video_url} (checked like a Reel). Stories take no caption, so none is sent, and an
 *       unknown outcome cannot be looked up by one: it ends {@code publication_unconfirmed}.</li>
 * </ul>
 * No idempotency key here either, so {@link PublicationLedger} drives the calls; after an unknown outcome the next
 * attempt looks through the account's latest media for the same caption. Nothing is published without
 * {@code media_publish}, so an abandoned container is harmless. Errors otherwise as {@link GraphErrors} reads them.
 */
@ApplicationScoped
public class InstagramPublisher implements Publisher {
    static final String FEED = "feed";
    static final String REEL = "reel";
    static final String STORY = "story";

    private final InstagramContainers containers;
    private final InstagramCarousel carousel;
    private final PublicationLedger ledger;
    private final InstagramConfig config;
    private final ObjectMapper mapper;

    public InstagramPublisher(
            InstagramContainers containers,
            InstagramCarousel carousel,
            PublicationLedger ledger,
            InstagramConfig config,
            ObjectMapper mapper) {
        this.containers = containers;
        this.carousel = carousel;
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
        String format = format(request.platformOptions());
        boolean video = Post.Media.VIDEO.equals(media.type());
        if (STORY.equals(format)) {
            // A story takes no caption: none is sent, and none can find it again.
            ObjectNode story = mapper.createObjectNode()
                    .put("media_type", "STORIES")
                    .put(video ? "video_url" : "image_url", media.url());
            return ledger.publish(
                    request, video ? processed(story, "", "the story") : inAttempt(story, "", "the story"));
        }
        if (FEED.equals(format) && request.media().size() > 1) {
            return ledger.publish(request, carousel.calls(request, caption));
        }
        if (REEL.equals(format) || video) {
            ObjectNode reel = mapper.createObjectNode()
                    .put("media_type", "REELS")
                    .put("video_url", media.url())
                    .put("caption", caption);
            JsonNode shareToFeed = request.platformOptions() == null
                    ? null
                    : request.platformOptions().get("share_to_feed");
            if (shareToFeed != null && shareToFeed.isBoolean()) {
                reel.put("share_to_feed", shareToFeed.asBoolean());
            }
            return ledger.publish(request, processed(reel, caption, "the video"));
        }
        ObjectNode image =
                mapper.createObjectNode().put("image_url", media.url()).put("caption", caption);
        return ledger.publish(request, inAttempt(image, caption, "the image"));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    /** The post's {@code format} option, {@code feed} when absent (posts-service validates its values). */
    static String format(JsonNode options) {
        return options == null ? FEED : options.path("format").asText(FEED);
    }

    /** A container Instagram fetches quickly (an image): waited for and published within the attempt. */
    private PlatformCalls inAttempt(ObjectNode container, String caption, String what) {
        return new PlatformCalls(
                access -> containers
                        .create(access, container, what)
                        .flatMap(made -> made instanceof PlatformAnswer.Processing processing
                                ? containers.publishWhenFinished(access, processing.ref(), what)
                                : Uni.createFrom().item(made)),
                access -> containers.find(access, caption));
    }

    /** A container Instagram processes for minutes (a video): made, then checked once per attempt until published. */
    private PlatformCalls processed(ObjectNode container, String caption, String what) {
        return new PlatformCalls(
                access -> containers.create(access, container, what),
                access -> containers.find(access, caption),
                (ProviderAccess access, String containerId) -> containers.check(access, containerId, caption, what),
                new PlatformCalls.ProcessingLimits(
                        config.reelsCheckInterval(), config.reelsProcessingDeadline(), true));
    }
}
