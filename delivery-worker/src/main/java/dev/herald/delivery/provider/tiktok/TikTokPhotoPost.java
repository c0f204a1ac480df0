package dev.herald.delivery.provider.tiktok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.delivery.config.TikTokConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * A TikTok photo post (1 to 35 images, no video) through the Content Posting API, for {@link TikTokPublisher}:
 * {@code creator_info/query} as for a video, then {@code POST /v2/post/publish/content/init/} with
 * {@code post_mode DIRECT_POST}, {@code media_type PHOTO}, {@code post_info} (the text as {@code description}, the
 * {@code title} option, {@code privacy_level}, {@code disable_comment}, {@code auto_add_music}) and {@code source_info}
 * {@code PULL_FROM_URL} with the photos' URLs in order and {@code photo_cover_index}; then {@code status/fetch} across
 * attempts as for a video ({@link TikTokPublishStatus}). TikTok fetches the photos itself, so nothing goes through
 * media ingest and nothing is metered as media. TikTok pulls only from URL prefixes or domains the app has verified
 * with it: any other is refused {@code url_ownership_unverified}, a final error.
 * <p>
 * Unlike a file upload, the init itself may publish (TikTok pulls right away): when its answer is lost there is no
 * publish id to ask about, and the target fails {@code publication_unconfirmed} rather than risk a second post.
 */
@ApplicationScoped
public class TikTokPhotoPost {
    static final int MAX_PHOTOS = 35;

    private final TikTokApi api;
    private final TikTokPublishStatus status;
    private final PublicationLedger ledger;
    private final ProviderPublicationStatements publications;
    private final TikTokConfig config;
    private final ObjectMapper mapper;

    public TikTokPhotoPost(
            TikTokApi api,
            TikTokPublishStatus status,
            PublicationLedger ledger,
            ProviderPublicationStatements publications,
            TikTokConfig config,
            ObjectMapper mapper) {
        this.api = api;
        this.status = status;
        this.ledger = ledger;
        this.publications = publications;
        this.config = config;
        this.mapper = mapper;
    }

    /** Whether the post is one TikTok takes as a photo post: every item an image. */
    static boolean isPhotoPost(PublishRequest request) {
        return !request.media().isEmpty()
                && request.media().stream().allMatch(item -> Post.Media.IMAGE.equals(item.type()));
    }

    Uni<PublishOutcome> publish(PublishRequest request) {
        return ledger.publish(
                request,
                new PlatformCalls(
                        access -> create(request, access),
                        access -> find(request, access),
                        (access, publishId) -> status.check(request, access, publishId),
                        new PlatformCalls.ProcessingLimits(
                                config.checkInterval(), config.processingDeadline(), false)));
    }

    private Uni<PlatformAnswer> create(PublishRequest request, ProviderAccess access) {
        return TikTokPublisher.whenCreatorAllows(
                api,
                request,
                access,
                creator -> api.initContent(access, init(request, creator)).map(started -> {
                    JsonNode answered = api.json(started);
                    String publishId = answered.path("data").path("publish_id").asText(null);
                    if (TikTokErrors.ok(started.status(), answered) && publishId != null) {
                        return new PlatformAnswer.Processing(publishId);
                    }
                    PlatformAnswer failure = TikTokErrors.answer(started, answered, "TikTok refused the photo post");
                    // A 5xx may have started the post (TikTok pulls at once): the next attempt must not init blindly.
                    return failure instanceof PlatformAnswer.Refused refused
                                    && refused.error().retryable()
                                    && started.status() >= 500
                            ? new PlatformAnswer.Unknown(refused.error())
                            : failure;
                }));
    }

    /** The init body as TikTok's photo post reference gives it. */
    ObjectNode init(PublishRequest request, JsonNode creator) {
        JsonNode options = request.platformOptions();
        ObjectNode body = mapper.createObjectNode();
        body.put("media_type", "PHOTO");
        body.put("post_mode", "DIRECT_POST");
        ObjectNode post = body.putObject("post_info");
        if (options.hasNonNull("title")) {
            post.put("title", options.get("title").asText());
        }
        if (request.text() != null && !request.text().isBlank()) {
            post.put("description", request.text());
        }
        post.put("privacy_level", options.path("privacy_level").asText());
        JsonNode disableComment = options.get("disable_comment");
        // Left out, comments follow the creator's own setting.
        post.put(
                "disable_comment",
                disableComment != null && disableComment.isBoolean()
                        ? disableComment.asBoolean()
                        : creator.path("comment_disabled").asBoolean(false));
        if (options.has("auto_add_music")) {
            post.put("auto_add_music", options.path("auto_add_music").asBoolean(false));
        }
        ObjectNode source = body.putObject("source_info");
        source.put("source", "PULL_FROM_URL");
        source.put("photo_cover_index", options.path("photo_cover_index").asInt(0));
        ArrayNode photos = source.putArray("photo_images");
        request.media().forEach(item -> photos.add(item.url()));
        return body;
    }

    /**
     * What an init whose answer was lost did: with the publish id (kept once TikTok answered) its status; without one,
     * nothing can be asked, and TikTok may have published.
     */
    private Uni<PlatformAnswer> find(PublishRequest request, ProviderAccess access) {
        return publications.find(request.idempotencyToken()).flatMap(before -> {
            if (before == null || before.providerRef() == null) {
                return Uni.createFrom()
                        .item(PlatformResponses.unconfirmed(
                                "TikTok", "the creator's profile", Map.of("platform", "tiktok")));
            }
            return status.find(request, access, null);
        });
    }
}
