package dev.herald.delivery.provider.tiktok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.TikTokConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Live TikTok videos (and photo posts, {@link TikTokPhotoPost}) through the Content Posting API's Direct Post (the account's token from
 * accounts-service like the others):
 * <ol>
 *   <li>{@code creator_info/query} first: what posts-service validated at acceptance is validated again, since creators
 *       change their controls at any time (the privacy level must be one of {@code privacy_level_options}; an interaction
 *       the creator turned off cannot be turned on); a creator TikTok will not take posts from now is refused there;</li>
 *   <li>{@code video/init} with {@code post_info} (the text as {@code title}, the post's TikTok options) and
 *       {@code source_info} {@code FILE_UPLOAD}: the publish id is kept in the ledger before any byte moves;</li>
 *   <li>the bytes, streamed from the media URL through {@link MediaIngest} (checked, metered, within the workspace's
 *       concurrent ingests), in the chunks TikTok's media transfer guide asks for, one {@code PUT} after the other;</li>
 *   <li>{@code status/fetch} across attempts ({@link PlatformAnswer.Processing}) until
 *       {@code PUBLISH_COMPLETE} or {@code FAILED}, for at most {@code processing-deadline}.</li>
 * </ol>
 * The upload is {@link TikTokVideoUpload}, the status {@link TikTokPublishStatus}. A post of images only is a photo
 * post instead ({@link TikTokPhotoPost}: TikTok pulls the photos from their URLs).
 * <b>Never twice.</b> The publish id is TikTok's handle on the post: an attempt that finds the last call's outcome unknown
 * asks its status ({@code uploaded_bytes} tells an upload that broke off from one TikTok has whole) rather than start
 * another, and the reconciler does the same. An init whose answer was lost left no bytes at TikTok, which publishes
 * nothing without them, so a new init is harmless there.
 */
@ApplicationScoped
public class TikTokPublisher implements Publisher {
    private final TikTokApi api;
    private final MediaIngest ingest;
    private final TikTokVideoUpload videoUpload;
    private final TikTokPhotoPost photos;
    private final TikTokPublishStatus status;
    private final PublicationLedger ledger;
    private final ProviderPublicationStatements publications;
    private final TikTokConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public TikTokPublisher(
            TikTokApi api,
            MediaIngest ingest,
            TikTokVideoUpload videoUpload,
            TikTokPhotoPost photos,
            TikTokPublishStatus status,
            PublicationLedger ledger,
            ProviderPublicationStatements publications,
            TikTokConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.api = api;
        this.ingest = ingest;
        this.videoUpload = videoUpload;
        this.photos = photos;
        this.status = status;
        this.ledger = ledger;
        this.publications = publications;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.TIKTOK;
    }

    @Override
    public boolean ingestsMedia() {
        return true;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        TargetError unpublishable = unpublishable(request);
        if (unpublishable != null) {
            return Uni.createFrom().item(PublishOutcome.failed(unpublishable));
        }
        if (TikTokPhotoPost.isPhotoPost(request)) {
            return photos.publish(request);
        }
        // Once TikTok has every byte, a check (or the post) needs no source, which may be gone since.
        return ledger.publishUploading(request, ingest, source -> calls(request, source));
    }

    /**
     * Asks TikTok about the publish id the ledger kept, never uploads (a reconciler only looks); the reservation
     * follows the answer.
     */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        if (TikTokPhotoPost.isPhotoPost(request)) {
            return photos.publish(request);
        }
        return ledger.publishUploading(request, ingest, source -> calls(request, source));
    }

    private static TargetError unpublishable(PublishRequest request) {
        Post.Media media = request.medium();
        if (media == null || request.media().size() > 1 && !TikTokPhotoPost.isPhotoPost(request)) {
            // posts-service refuses these; this only guards against a hand-made event.
            return new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "TikTok posts need one video, or 1 to " + TikTokPhotoPost.MAX_PHOTOS
                                    + " images (a photo post) with no video among them; nothing was sent to TikTok.",
                            false,
                            Map.of(
                                    "platform",
                                    "tiktok",
                                    "media_type",
                                    media == null ? "none" : media.type(),
                                    "media_count",
                                    request.media().size()))
                    .as(TargetError.CATEGORY_MEDIA, TargetError.ACTION_REPLACE_MEDIA);
        }
        if (request.platformOptions() == null
                || request.platformOptions().path("privacy_level").asText("").isBlank()) {
            // posts-service requires it; this only guards against a hand-made event.
            return new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "TikTok posts need platform_options.tiktok.privacy_level,"
                                    + " chosen from the creator's options; nothing was sent to TikTok.",
                            false,
                            Map.of("platform", "tiktok", "reason", "privacy_level_missing"))
                    .as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT);
        }
        return null;
    }

    /** {@code source} is null when nothing is to be uploaded (a processing or published token, a reconciliation). */
    private PlatformCalls calls(PublishRequest request, MediaSource.Located source) {
        return new PlatformCalls(
                access -> source == null
                        ? Uni.createFrom()
                                .failure(new IllegalStateException("a TikTok post is never started without its media"))
                        : create(request, access, source),
                access -> status.find(request, access, source),
                (access, publishId) -> status.check(request, access, publishId),
                new PlatformCalls.ProcessingLimits(config.checkInterval(), config.processingDeadline(), false));
    }

    /**
     * {@code creator_info/query} first, for a video and a photo post alike: {@code post} is given the creator's data
     * when TikTok answered and the creator's controls allow the post's options ({@link #creatorRefuses}).
     */
    static Uni<PlatformAnswer> whenCreatorAllows(
            TikTokApi api,
            PublishRequest request,
            ProviderAccess access,
            Function<JsonNode, Uni<PlatformAnswer>> post) {
        return api.creatorInfo(access).flatMap(answer -> {
            JsonNode body = api.json(answer);
            if (!TikTokErrors.ok(answer.status(), body)) {
                return Uni.createFrom()
                        .item(TikTokErrors.answer(answer, body, "TikTok did not say what the creator may post"));
            }
            JsonNode creator = body.path("data");
            TargetError refusal = creatorRefuses(request.platformOptions(), creator);
            return refusal != null ? Uni.createFrom().item(new PlatformAnswer.Refused(refusal)) : post.apply(creator);
        });
    }

    private Uni<PlatformAnswer> create(PublishRequest request, ProviderAccess access, MediaSource.Located source) {
        return whenCreatorAllows(api, request, access, creator -> {
            TikTokVideoUpload.ChunkPlan plan = TikTokVideoUpload.chunks(source.size(), config.chunkSize());
            ObjectNode init = init(request, creator, source.size(), plan);
            return api.initVideo(access, init).flatMap(started -> {
                JsonNode answered = api.json(started);
                String publishId = answered.path("data").path("publish_id").asText(null);
                String uploadUrl = answered.path("data").path("upload_url").asText(null);
                if (!TikTokErrors.ok(started.status(), answered) || publishId == null || uploadUrl == null) {
                    // With FILE_UPLOAD nothing is published before every byte is sent: whatever init did, a refusal.
                    return Uni.createFrom()
                            .item(TikTokErrors.answer(started, answered, "TikTok refused to start the post"));
                }
                return publications
                        .callRef(request.idempotencyToken(), publishId, Timestamps.now(clock))
                        .flatMap(kept -> videoUpload.upload(request, source, plan, publishId, uploadUrl));
            });
        });
    }

    /**
     * The creator's controls as they stand now against the post's options: null when they allow it, else why not. The
     * video's duration is not known to Herald (it does not read the file), so {@code max_video_post_duration_sec} is left
     * to TikTok, which fails such a post {@code duration_check_failed}.
     */
    static TargetError creatorRefuses(JsonNode options, JsonNode creator) {
        String privacy = options.path("privacy_level").asText();
        List<String> offered = new ArrayList<>();
        creator.path("privacy_level_options").forEach(option -> offered.add(option.asText()));
        if (!offered.contains(privacy)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("platform", "tiktok");
            details.put("reason", "privacy_level_unavailable");
            details.put("privacy_level", privacy);
            details.put("privacy_level_options", offered);
            return new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "The TikTok creator now offers privacy levels " + String.join(", ", offered) + "; "
                                    + privacy + " is not one of them. Nothing was sent to TikTok.",
                            false,
                            details)
                    .as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT);
        }
        for (String[] interaction : INTERACTIONS) {
            JsonNode chosen = options.get(interaction[0]);
            if (creator.path(interaction[1]).asBoolean(false)
                    && chosen != null
                    && chosen.isBoolean()
                    && !chosen.asBoolean()) {
                return new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "The TikTok creator has turned " + interaction[2] + " off; " + interaction[0]
                                        + " must be true or omitted. Nothing was sent to TikTok.",
                                false,
                                Map.of(
                                        "platform",
                                        "tiktok",
                                        "reason",
                                        "interaction_disabled",
                                        "option",
                                        interaction[0]))
                        .as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT);
            }
        }
        return null;
    }

    /** The post's option, the creator's flag in creator_info, and what it is called. */
    private static final String[][] INTERACTIONS = {
        {"disable_comment", "comment_disabled", "comments"},
        {"disable_duet", "duet_disabled", "duets"},
        {"disable_stitch", "stitch_disabled", "stitches"}
    };

    /** The init's body: the post's details and the upload's size and chunks. */
    ObjectNode init(PublishRequest request, JsonNode creator, long size, TikTokVideoUpload.ChunkPlan plan) {
        JsonNode options = request.platformOptions();
        ObjectNode body = mapper.createObjectNode();
        ObjectNode post = body.putObject("post_info");
        if (request.text() != null && !request.text().isBlank()) {
            post.put("title", request.text());
        }
        post.put("privacy_level", options.path("privacy_level").asText());
        for (String[] interaction : INTERACTIONS) {
            // Left out, an interaction follows the creator's own setting.
            JsonNode chosen = options.get(interaction[0]);
            post.put(
                    interaction[0],
                    chosen != null && chosen.isBoolean()
                            ? chosen.asBoolean()
                            : creator.path(interaction[1]).asBoolean(false));
        }
        post.put("brand_content_toggle", options.path("brand_content_toggle").asBoolean(false));
        post.put("brand_organic_toggle", options.path("brand_organic_toggle").asBoolean(false));
        ObjectNode sourceInfo = body.putObject("source_info");
        sourceInfo.put("source", "FILE_UPLOAD");
        sourceInfo.put("video_size", size);
        sourceInfo.put("chunk_size", plan.size());
        sourceInfo.put("total_chunk_count", plan.count());
        return body;
    }
}
