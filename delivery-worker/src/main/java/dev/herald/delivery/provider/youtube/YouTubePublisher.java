package dev.herald.delivery.provider.youtube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Live YouTube videos through the YouTube Data API v3's resumable upload (the account's external id
 * is the channel id): {@code POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status} with the
 * video's {@code snippet} and {@code status} opens a session (its URI in {@code Location}), then one {@code PUT} streams
 * the bytes from the media URL ({@link MediaIngest}: checked, metered, within the workspace's concurrent ingests).
 * The video's {@code snippet} and {@code status} are {@link YouTubeVideoResource}'s, the session
 * {@link YouTubeUploadSession}.
 * The answer's video id is the target's {@code provider_post_id}, {@code https://www.youtube.com/watch?v=<id>} its url.
 * <p>
 * <b>Never twice.</b> YouTube takes no idempotency key, but the session is its own: Herald keeps the session URI per
 * target ({@code youtube_upload_sessions}), and any later attempt first asks the session where it stands
 * ({@code PUT} with {@code Content-Range: bytes *}{@code /<size>}): {@code 200}/{@code 201} is the finished video (an
 * earlier attempt's answer was lost), {@code 308} with {@code Range: bytes=0-N} resumes from byte N+1 (the source
 * fetched again with a {@code Range} request), {@code 404}/{@code 410} is a lapsed session, which published nothing,
 * and a new one starts. A connection that breaks during the {@code PUT} is resumed the same way within the attempt,
 * up to {@code resumes} times. {@link PublicationLedger} drives the calls (a published target answers without a call;
 * a refused token is replaced once).
 */
@ApplicationScoped
public class YouTubePublisher implements Publisher {
    private final MediaIngest ingest;
    private final YouTubeUploadSession session;
    private final PublicationLedger ledger;
    private final ProviderPublicationStatements publications;
    private final ObjectMapper mapper;

    public YouTubePublisher(
            MediaIngest ingest,
            YouTubeUploadSession session,
            PublicationLedger ledger,
            ProviderPublicationStatements publications,
            ObjectMapper mapper) {
        this.ingest = ingest;
        this.session = session;
        this.ledger = ledger;
        this.publications = publications;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.YOUTUBE;
    }

    @Override
    public boolean ingestsMedia() {
        return true;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.medium();
        if (media == null || !Post.Media.VIDEO.equals(media.type())) {
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "YouTube posts need a video; nothing was sent to YouTube.",
                                    false,
                                    Map.of("platform", "youtube", "media_type", media == null ? "none" : media.type()))
                            .as(TargetError.CATEGORY_MEDIA, TargetError.ACTION_REPLACE_MEDIA)));
        }
        ObjectNode video = YouTubeVideoResource.of(mapper, request);
        // A video an earlier attempt published is answered before the source is looked at: the file may be gone since.
        return publications
                .publishedPost(request.idempotencyToken())
                .flatMap(earlier -> earlier.isPresent()
                        ? ingest.settle(
                                request,
                                PublishOutcome.published(
                                        earlier.get().providerPostId(),
                                        earlier.get().url()))
                        : ingest.ingest(
                                request,
                                source -> ledger.publish(
                                        request,
                                        new PlatformCalls(
                                                access -> session.upload(request, access, source, video),
                                                access -> session.upload(request, access, source, video)))));
    }

    /**
     * Settles an uncertain upload by asking its session what it made (a reconciler only looks): never opens a session,
     * never sends a byte. A finished session is the video; an unfinished, lapsed or missing one made none. The media
     * reservation is consumed or released with the answer.
     */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return ledger.publish(
                        request,
                        new PlatformCalls(
                                access -> Uni.createFrom()
                                        .failure(new IllegalStateException("reconciling never uploads")),
                                access -> session.outcome(request, access)))
                .flatMap(outcome -> ingest.settle(request, outcome));
    }
}
