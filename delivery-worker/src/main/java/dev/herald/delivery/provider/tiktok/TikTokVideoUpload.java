package dev.herald.delivery.provider.tiktok;

import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaRefused;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.SourceChunks;
import dev.herald.delivery.provider.media.StreamingHttp;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * A Direct Post's bytes ({@link TikTokPublisher}): the file from its URL to the upload URL TikTok's init answered, in
 * the chunks TikTok's media transfer guide asks for, one {@code PUT} after the other from one fetch of the source.
 */
@ApplicationScoped
public class TikTokVideoUpload {
    private static final Logger LOG = Logger.getLogger(TikTokVideoUpload.class);
    static final long MIN_CHUNK = 5L * 1024 * 1024;
    static final long MAX_CHUNK = 64L * 1024 * 1024;
    static final int MAX_CHUNKS = 1000;

    /** How a file is cut for TikTok: {@code count} chunks of {@code size} bytes, the last one taking the trailing bytes. */
    record ChunkPlan(long size, int count) {}

    private final TikTokApi api;
    private final MediaSource sources;

    public TikTokVideoUpload(TikTokApi api, MediaIngest ingest) {
        this.api = api;
        this.sources = ingest.sources();
    }

    /**
     * The file from its URL to TikTok's upload URL, chunk after chunk, from one fetch of the source. TikTok answers the
     * last chunk {@code 201} and then processes the video: the post is {@link PlatformAnswer.Processing}. Anything that
     * stops the upload short leaves its outcome to the publish id's status (Unknown), except a chunk TikTok refused.
     */
    Uni<PlatformAnswer> upload(
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
                                    Map.of("platform", "tiktok", "publish_id", publishId))
                            .as(TargetError.CATEGORY_NETWORK, TargetError.ACTION_RETRY_LATER));
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
                    PlatformAnswer failure = TikTokErrors.answer(
                            answer, api.json(answer), "TikTok refused bytes " + first + "-" + last + " of the video");
                    if (failure instanceof PlatformAnswer.Refused refused
                            && refused.error().retryable()) {
                        // A 5xx or a throttled chunk: how much TikTok kept is for its status to say.
                        return Uni.createFrom().item(new PlatformAnswer.Unknown(refused.error()));
                    }
                    return Uni.createFrom().item(failure);
                });
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
}
