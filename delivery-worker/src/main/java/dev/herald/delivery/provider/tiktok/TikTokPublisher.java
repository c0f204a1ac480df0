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
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaRefused;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.SourceChunks;
import dev.herald.delivery.provider.media.StreamingHttp;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Live TikTok videos through the Content Posting API's Direct Post (the account's token from
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
 * <b>Never twice.</b> The publish id is TikTok's handle on the post: an attempt that finds the last call's outcome unknown
 * asks its status ({@code uploaded_bytes} tells an upload that broke off from one TikTok has whole) rather than start
 * another, and the reconciler does the same. An init whose answer was lost left no bytes at TikTok, which publishes
 * nothing without them, so a new init is harmless there.
 */
@ApplicationScoped
public class TikTokPublisher implements Publisher {
    private static final Logger LOG = Logger.getLogger(TikTokPublisher.class);
    static final long MIN_CHUNK = 5L * 1024 * 1024;
    static final long MAX_CHUNK = 64L * 1024 * 1024;
    static final int MAX_CHUNKS = 1000;

    /** How a file is cut for TikTok: {@code count} chunks of {@code size} bytes, the last one taking the trailing bytes. */
    record ChunkPlan(long size, int count) {}

    private final TikTokApi api;
    private final MediaIngest ingest;
    private final MediaSource sources;
    private final PublicationLedger ledger;
    private final ProviderPublicationStatements publications;
    private final TikTokConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public TikTokPublisher(
            TikTokApi api,
            MediaIngest ingest,
            PublicationLedger ledger,
            ProviderPublicationStatements publications,
            TikTokConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.api = api;
        this.ingest = ingest;
        this.sources = ingest.sources();
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
        // Once TikTok has every byte, a check (or the post) needs no source, which may be gone since.
        return ledger.publishUploading(request, ingest, source -> calls(request, source));
    }

    /**
     * Asks TikTok about the publish id the ledger kept, never uploads (a reconciler only looks); the reservation
     * follows the answer.
     */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return ledger.publishUploading(request, ingest, source -> calls(request, source));
    }

    private static TargetError unpublishable(PublishRequest request) {
        Post.Media media = request.media();
        if (media != null && Post.Media.IMAGE.equals(media.type())) {
            return new TargetError(
                    TargetError.PUBLISHER_UNAVAILABLE,
                    "Herald does not publish TikTok photo posts: TikTok"
                            + " takes photos only from URLs on domains the app has verified with TikTok, which customers' media hosts"
                            + " are not. Nothing was sent to TikTok.",
                    false,
                    Map.of("platform", "tiktok", "media_type", media.type()));
        }
        if (media == null || !Post.Media.VIDEO.equals(media.type())) {
            return new TargetError(
                    TargetError.PROVIDER_ERROR,
                    "TikTok posts need a video; nothing was sent to TikTok.",
                    false,
                    Map.of("platform", "tiktok", "media_type", media == null ? "none" : media.type()));
        }
        if (request.platformOptions() == null
                || request.platformOptions().path("privacy_level").asText("").isBlank()) {
            // posts-service requires it; this only guards against a hand-made event.
            return new TargetError(
                    TargetError.PROVIDER_ERROR,
                    "TikTok posts need platform_options.tiktok.privacy_level,"
                            + " chosen from the creator's options; nothing was sent to TikTok.",
                    false,
                    Map.of("platform", "tiktok", "reason", "privacy_level_missing"));
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
                access -> find(request, access, source),
                (access, publishId) -> check(request, access, publishId),
                new PlatformCalls.ProcessingLimits(config.checkInterval(), config.processingDeadline(), false));
    }

    private Uni<PlatformAnswer> create(PublishRequest request, ProviderAccess access, MediaSource.Located source) {
        return api.creatorInfo(access).flatMap(answer -> {
            JsonNode body = json(answer);
            if (!TikTokErrors.ok(answer.status(), body)) {
                return Uni.createFrom().item(error(answer, body, "TikTok did not say what the creator may post"));
            }
            JsonNode creator = body.path("data");
            TargetError refusal = creatorRefuses(request.platformOptions(), creator);
            if (refusal != null) {
                return Uni.createFrom().item(new PlatformAnswer.Refused(refusal));
            }
            ChunkPlan plan = chunks(source.size(), config.chunkSize());
            ObjectNode init = init(request, creator, source.size(), plan);
            return api.initVideo(access, init).flatMap(started -> {
                JsonNode answered = json(started);
                String publishId = answered.path("data").path("publish_id").asText(null);
                String uploadUrl = answered.path("data").path("upload_url").asText(null);
                if (!TikTokErrors.ok(started.status(), answered) || publishId == null || uploadUrl == null) {
                    // With FILE_UPLOAD nothing is published before every byte is sent: whatever init did, a refusal.
                    return Uni.createFrom().item(error(started, answered, "TikTok refused to start the post"));
                }
                return publications
                        .callRef(request.idempotencyToken(), publishId, Timestamps.now(clock))
                        .flatMap(kept -> upload(request, source, plan, publishId, uploadUrl));
            });
        });
    }

    /**
     * The file from its URL to TikTok's upload URL, chunk after chunk, from one fetch of the source. TikTok answers the
     * last chunk {@code 201} and then processes the video: the post is {@link PlatformAnswer.Processing}. Anything that
     * stops the upload short leaves its outcome to the publish id's status (Unknown), except a chunk TikTok refused.
     */
    private Uni<PlatformAnswer> upload(
            PublishRequest request, MediaSource.Located source, ChunkPlan plan, String publishId, String uploadUrl) {
        String type = videoType(source.contentType());
        return sources.open(source, 0)
                .flatMap(response -> {
                    SourceChunks chunks = new SourceChunks(response);
                    return sendChunk(
                            chunks,
                            () -> StreamingHttp.discard(response),
                            source.size(),
                            plan,
                            0,
                            type,
                            publishId,
                            uploadUrl);
                })
                .onFailure(failure -> !(failure instanceof MediaRefused))
                .recoverWithItem(failure -> {
                    LOG.infof(
                            "post %s to account %s: the upload to TikTok broke off (%s); its status will tell what TikTok got",
                            request.postId(), request.accountId(), failure.toString());
                    return new PlatformAnswer.Unknown(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "The upload to TikTok broke off ("
                                    + failure.getClass().getSimpleName()
                                    + "); the next attempt asks TikTok what it received.",
                            true,
                            Map.of("platform", "tiktok", "publish_id", publishId)));
                });
    }

    private Uni<PlatformAnswer> sendChunk(
            SourceChunks chunks,
            Runnable closeSource,
            long size,
            ChunkPlan plan,
            int index,
            String type,
            String publishId,
            String uploadUrl) {
        long first = index * plan.size();
        boolean lastChunk = index == plan.count() - 1;
        long last = lastChunk ? size - 1 : first + plan.size() - 1;
        return api.uploadChunk(uploadUrl, type, first, last, size, chunks.next(last - first + 1), closeSource)
                .flatMap(answer -> {
                    if (answer.status() / 100 == 2) {
                        return lastChunk
                                ? Uni.createFrom().item(new PlatformAnswer.Processing(publishId))
                                : sendChunk(chunks, closeSource, size, plan, index + 1, type, publishId, uploadUrl);
                    }
                    closeSource.run();
                    PlatformAnswer failure =
                            error(answer, json(answer), "TikTok refused bytes " + first + "-" + last + " of the video");
                    if (failure instanceof PlatformAnswer.Refused refused
                            && refused.error().retryable()) {
                        // A 5xx or a throttled chunk: how much TikTok kept is for its status to say.
                        return Uni.createFrom().item(new PlatformAnswer.Unknown(refused.error()));
                    }
                    return Uni.createFrom().item(failure);
                });
    }

    /**
     * What the last call, whose outcome is unknown, left at TikTok, by the publish id kept before its upload: the post,
     * a video TikTok has whole and is processing, or nothing (no publish id: the init's answer was lost before any byte
     * moved; an upload that broke off short; a post that failed with a retryable reason).
     */
    private Uni<PlatformAnswer> find(PublishRequest request, ProviderAccess access, MediaSource.Located source) {
        return publications.find(request.idempotencyToken()).flatMap(before -> {
            String publishId = before == null ? null : before.providerRef();
            if (publishId == null) {
                return Uni.createFrom().item(new PlatformAnswer.NotFound());
            }
            return api.status(access, publishId).map(answer -> {
                JsonNode body = json(answer);
                if (!TikTokErrors.ok(answer.status(), body)) {
                    return "invalid_publish_id".equals(TikTokErrors.code(body))
                            ? new PlatformAnswer.NotFound()
                            : error(answer, body, "TikTok could not report the post's status");
                }
                JsonNode data = body.path("data");
                String status = data.path("status").asText("");
                switch (status) {
                    case "PUBLISH_COMPLETE":
                        return published(request, publishId, data);
                    case "FAILED": {
                        TargetError failed =
                                TikTokErrors.failed(data.path("fail_reason").asText(null), publishId);
                        return failed.retryable() ? new PlatformAnswer.NotFound() : new PlatformAnswer.Refused(failed);
                    }
                    case "PROCESSING_UPLOAD":
                        if (source != null
                                && data.has("uploaded_bytes")
                                && data.get("uploaded_bytes").asLong() < source.size()) {
                            // Part of the file only: TikTok publishes nothing without the rest, and its upload URL
                            // lapses.
                            return new PlatformAnswer.NotFound();
                        }
                        return new PlatformAnswer.Processing(publishId);
                    case "PROCESSING_DOWNLOAD":
                        return new PlatformAnswer.Processing(publishId);
                    default:
                        return unexpected(status, publishId);
                }
            });
        });
    }

    /** One look at the post TikTok is processing; anything but TikTok's own verdict keeps the publish id for the next. */
    private Uni<PlatformAnswer> check(PublishRequest request, ProviderAccess access, String publishId) {
        return api.status(access, publishId).map(answer -> {
            JsonNode body = json(answer);
            if (!TikTokErrors.ok(answer.status(), body)) {
                if ("invalid_publish_id".equals(TikTokErrors.code(body))) {
                    return new PlatformAnswer.Refused(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "TikTok no longer knows the"
                                    + " post's publish id, so it published nothing from it; the next attempt uploads the video again.",
                            true,
                            Map.of(
                                    "platform",
                                    "tiktok",
                                    "provider_code",
                                    "invalid_publish_id",
                                    "publish_id",
                                    publishId)));
                }
                PlatformAnswer failure = error(answer, body, "TikTok could not report the post's status");
                return failure instanceof PlatformAnswer.Refused refused
                        ? new PlatformAnswer.Unknown(refused.error())
                        : failure;
            }
            JsonNode data = body.path("data");
            String status = data.path("status").asText("");
            switch (status) {
                case "PUBLISH_COMPLETE":
                    return published(request, publishId, data);
                case "PROCESSING_UPLOAD":
                case "PROCESSING_DOWNLOAD":
                    return new PlatformAnswer.Processing(publishId);
                case "FAILED":
                    return new PlatformAnswer.Refused(
                            TikTokErrors.failed(data.path("fail_reason").asText(null), publishId));
                default:
                    return unexpected(status, publishId);
            }
        });
    }

    private static PlatformAnswer unexpected(String status, String publishId) {
        return new PlatformAnswer.Unknown(new TargetError(
                TargetError.PROVIDER_ERROR,
                "TikTok reported the post as '" + status + "'.",
                true,
                Map.of("platform", "tiktok", "publish_id", publishId, "provider_status_text", status)));
    }

    /**
     * A completed post: its id is the first of {@code publicaly_available_post_id} (TikTok's spelling), with the video's
     * URL; a post that is not public (or not through moderation yet) has none, and keeps the publish id with the
     * creator's profile as its URL.
     */
    private static PlatformAnswer published(PublishRequest request, String publishId, JsonNode data) {
        JsonNode ids = data.path("publicaly_available_post_id");
        String id = ids.isArray() && !ids.isEmpty() ? ids.get(0).asText() : null;
        String username = request.accountUsername();
        String profile = username == null || username.isBlank() ? null : "https://www.tiktok.com/@" + username;
        if (id == null || id.isBlank()) {
            return new PlatformAnswer.Published(publishId, profile);
        }
        return new PlatformAnswer.Published(id, profile == null ? null : profile + "/video/" + id);
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
                    "The TikTok creator now offers privacy levels " + String.join(", ", offered) + "; " + privacy
                            + " is not one of them. Nothing was sent to TikTok.",
                    false,
                    details);
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
                        Map.of("platform", "tiktok", "reason", "interaction_disabled", "option", interaction[0]));
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
    ObjectNode init(PublishRequest request, JsonNode creator, long size, ChunkPlan plan) {
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

    /**
     * TikTok's media transfer guide: chunks of 5-64 MiB, the last one up to 128 MiB with the trailing bytes, the count
     * {@code floor(size / chunk_size)}, 1 to 1000 of them, several for a file over 64 MiB; a file up to one chunk goes
     * whole (below 5 MiB it must).
     */
    static ChunkPlan chunks(long size, long configured) {
        long chunk = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, configured));
        if (size <= chunk) {
            return new ChunkPlan(size, 1);
        }
        if (size > MAX_CHUNK) {
            // TikTok wants a file over 64 MiB in several chunks, and floor(size / chunk) of them must be two at least.
            chunk = Math.min(chunk, size / 2);
        }
        if (size / chunk > MAX_CHUNKS) {
            chunk = (size + MAX_CHUNKS - 1) / MAX_CHUNKS;
            if (chunk > MAX_CHUNK) {
                throw new MediaRefused(new TargetError(
                        TargetError.MEDIA_TOO_LARGE,
                        "The video is " + size + " bytes; TikTok" + " takes at most " + MAX_CHUNKS + " chunks of "
                                + MAX_CHUNK + " bytes.",
                        false,
                        Map.of("size_bytes", size, "max_bytes", MAX_CHUNK * MAX_CHUNKS)));
            }
        }
        return new ChunkPlan(chunk, (int) (size / chunk));
    }

    /** TikTok takes MP4, QuickTime and WebM videos; a host that calls the file something else is taken to serve MP4. */
    static String videoType(String contentType) {
        String type =
                contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase();
        return type.startsWith("video/") ? type : "video/mp4";
    }

    private PlatformAnswer error(StreamingHttp.Answer answer, JsonNode body, String what) {
        return TikTokErrors.answer(
                answer.status(), body, PlatformResponses.retryAfterSeconds(answer.header("Retry-After")), what);
    }

    private JsonNode json(StreamingHttp.Answer answer) {
        return PlatformResponses.body(mapper, answer.body());
    }
}
