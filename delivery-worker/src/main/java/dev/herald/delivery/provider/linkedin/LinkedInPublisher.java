package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.LinkedInConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.SourceChunks;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Live LinkedIn posts through the versioned Posts API, as the member or organization the account is (its URN is the
 * account's external id): text posts, and posts with an image or a video uploaded through LinkedIn's
 * Images and Videos APIs ({@link LinkedInMediaUpload}), the bytes streamed from the media URL by {@link MediaIngest}:
 * <ul>
 *   <li>an image: {@code POST /rest/images?action=initializeUpload} (owner: the author), one {@code PUT} of the file to
 *       the answered {@code uploadUrl}, then the post with {@code content.media.id} the image URN (and {@code altText}
 *       from the post's {@code alt_text} option), all in one attempt;</li>
 *   <li>a video: {@code POST /rest/videos?action=initializeUpload} ({@code fileSizeBytes}, no captions, no thumbnail),
 *       one {@code PUT} per part of {@code uploadInstructions} (the source fetched once and carved by
 *       {@link SourceChunks}), {@code POST /rest/videos?action=finalizeUpload} with the parts' ETags; LinkedIn then
 *       processes it, so the attempt ends {@link PlatformAnswer.Processing} and later attempts ask
 *       {@code GET /rest/videos/{urn}} until {@code AVAILABLE}, then make the post with the video URN
 *       ({@link PublicationLedger#postProcessed}), within {@code video-processing-deadline}.</li>
 *   <li>a document (a PDF): {@code POST /rest/documents?action=initializeUpload} (owner: the author), one {@code PUT}
 *       of the file to {@code uploadUrl}, then the post with {@code content.media} {@code {id, title}} (the
 *       {@code title} option, else the file's name), all in one attempt, as an image;</li>
 *   <li>several images (2 to 20, LinkedIn's MultiImage): each uploaded as one image is, in the post's order, then the
 *       post with {@code content.multiImage.images[{id}]}, all in one attempt; every image's bytes are metered
 *       (their sum is the destination's one media reservation).</li>
 * </ul>
 * LinkedIn takes no idempotency key, so {@link PublicationLedger} drives the calls: after a call whose outcome is
 * unknown, the next attempt looks through the author's latest posts for the same commentary before anything is
 * published again, and when LinkedIn does not let Herald look (members' posts need a permission LinkedIn grants few
 * apps), the target fails as {@code publication_unconfirmed} rather than risk a second post. Nothing before the post
 * call publishes anything, so a failed or broken upload is a refusal and the next attempt uploads anew. 429 and 5xx are
 * retryable, other 4xx are not; a refused token (401) is replaced once.
 */
@ApplicationScoped
public class LinkedInPublisher implements Publisher {
    private static final String POST_URL = "https://www.linkedin.com/feed/update/";

    private final LinkedInApi api;
    private final PublicationLedger ledger;
    private final MediaIngest ingest;
    private final LinkedInMediaUpload upload;
    private final LinkedInConfig config;
    private final ObjectMapper mapper;

    public LinkedInPublisher(
            @RestClient LinkedInApi api,
            PublicationLedger ledger,
            MediaIngest ingest,
            LinkedInMediaUpload upload,
            LinkedInConfig config,
            ObjectMapper mapper) {
        this.api = api;
        this.ledger = ledger;
        this.ingest = ingest;
        this.upload = upload;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.LINKEDIN;
    }

    @Override
    public boolean ingestsMedia() {
        return true;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        String commentary = LinkedInCommentary.of(request.text() == null ? "" : request.text());
        JsonNode options = request.platformOptions() == null ? mapper.createObjectNode() : request.platformOptions();
        String visibility = options.path("visibility").asText("PUBLIC");
        Post.Media media = request.medium();
        if (media == null) {
            return ledger.publish(
                    request,
                    new PlatformCalls(
                            access -> createPost(
                                    access,
                                    LinkedInRequests.postOf(mapper, access.externalId(), commentary, visibility)),
                            access -> findPost(access, commentary)));
        }
        if (request.media().size() > 1) {
            return publishImages(request, commentary, visibility);
        }
        if (Post.Media.VIDEO.equals(media.type())) {
            return ledger.publishUploading(
                    request,
                    ingest,
                    source -> new PlatformCalls(
                            access -> upload.uploadVideo(access, source),
                            access -> findPost(access, commentary),
                            (access, videoUrn) -> checkVideo(request, access, videoUrn, commentary, visibility),
                            new PlatformCalls.ProcessingLimits(
                                    config.videoCheckInterval(), config.videoProcessingDeadline(), true),
                            false));
        }
        if (Post.Media.DOCUMENT.equals(media.type())) {
            String title = options.path("title").asText(null);
            return publishUploaded(
                    request,
                    commentary,
                    upload::uploadDocument,
                    (access, urn) -> LinkedInRequests.withDocument(
                            LinkedInRequests.postOf(mapper, access.externalId(), commentary, visibility),
                            urn,
                            title,
                            media.url()));
        }
        String altText = options.path("alt_text").asText(null);
        return publishUploaded(
                request,
                commentary,
                upload::uploadImage,
                (access, urn) -> LinkedInRequests.withMedia(
                        LinkedInRequests.postOf(mapper, access.externalId(), commentary, visibility), urn, altText));
    }

    /**
     * One file uploaded whole ({@code upload}: an image or a document), then the post {@code post} makes of its URN,
     * in one attempt: nothing is published before the post call, so a refused upload is a refusal.
     */
    private Uni<PublishOutcome> publishUploaded(
            PublishRequest request,
            String commentary,
            BiFunction<ProviderAccess, MediaSource.Located, Uni<LinkedInMediaUpload.Uploaded>> upload,
            BiFunction<ProviderAccess, String, ObjectNode> post) {
        return ledger.publishUploading(
                request,
                ingest,
                source -> new PlatformCalls(
                        access -> upload.apply(access, source)
                                .flatMap(uploaded -> uploaded.refusal() != null
                                        ? Uni.createFrom().item(uploaded.refusal())
                                        : createPost(access, post.apply(access, uploaded.urn()))),
                        access -> findPost(access, commentary)));
    }

    /**
     * A multi-image post: every image uploaded through the Images API in the post's order, then one post call with
     * {@code content.multiImage}, all in one attempt; the bytes of every image are metered together
     * ({@link PublicationLedger#publishUploadingEach}). LinkedIn's MultiImage takes images only.
     */
    private Uni<PublishOutcome> publishImages(PublishRequest request, String commentary, String visibility) {
        if (request.media().stream().anyMatch(item -> !Post.Media.IMAGE.equals(item.type()))) {
            // posts-service refuses a video among several items for LinkedIn; this only guards against a hand-made
            // event.
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "LinkedIn posts several media items only as images (MultiImage); nothing was sent to"
                                    + " LinkedIn.",
                            false,
                            Map.of(
                                    "platform",
                                    "linkedin",
                                    "media_count",
                                    request.media().size()))));
        }
        return ledger.publishUploadingEach(
                request,
                ingest,
                request.media(),
                sources -> new PlatformCalls(
                        access -> upload.uploadImages(access, sources)
                                .flatMap(uploaded -> uploaded.refusal() != null
                                        ? Uni.createFrom().item(uploaded.refusal())
                                        : createPost(
                                                access,
                                                LinkedInRequests.withImages(
                                                        LinkedInRequests.postOf(
                                                                mapper, access.externalId(), commentary, visibility),
                                                        uploaded.urns()))),
                        access -> findPost(access, commentary)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPost(ProviderAccess access, ObjectNode post) {
        String body = LinkedInRequests.json(mapper, post);
        return api.createPost(PlatformResponses.bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, body)
                .map(response -> {
                    int status = response.getStatus();
                    if (status == 201 || status == 200) {
                        String urn = response.getHeaderString("x-restli-id");
                        return published(urn != null ? urn : response.getHeaderString("x-linkedin-id"));
                    }
                    JsonNode answer = PlatformResponses.body(mapper, response);
                    if (status == 401) {
                        return LinkedInErrors.tokenRefused(status, answer);
                    }
                    TargetError error = LinkedInErrors.error(status, response, answer, "LinkedIn refused the post");
                    // A 4xx created nothing; after a 5xx LinkedIn may have created the post, so the next attempt looks
                    // first.
                    return status < 500 ? new PlatformAnswer.Refused(error) : new PlatformAnswer.Unknown(error);
                });
    }

    private Uni<PlatformAnswer> findPost(ProviderAccess access, String commentary) {
        if (commentary.isBlank()) {
            // A media post without text cannot be told from the author's other posts by its commentary.
            return Uni.createFrom().item(PlatformResponses.unconfirmed("LinkedIn", "the author's profile", Map.of()));
        }
        return api.postsByAuthor(
                        PlatformResponses.bearer(access),
                        config.apiVersion(),
                        LinkedInApi.PROTOCOL_VERSION,
                        "author",
                        URLEncoder.encode(access.externalId(), StandardCharsets.UTF_8),
                        config.reconcileWindow(),
                        "LAST_MODIFIED")
                .map(response -> {
                    int status = response.getStatus();
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (status == 200) {
                        for (JsonNode post : body.path("elements")) {
                            if (commentary.equals(post.path("commentary").asText(null)) && post.hasNonNull("id")) {
                                return published(post.get("id").asText());
                            }
                        }
                        return new PlatformAnswer.NotFound();
                    }
                    if (status == 401) {
                        return LinkedInErrors.tokenRefused(status, body);
                    }
                    if (status == 403) {
                        // Members' posts need r_member_social, which LinkedIn grants few apps.
                        return PlatformResponses.unconfirmed(
                                "LinkedIn", "the author's profile", LinkedInErrors.details(status, body));
                    }
                    return new PlatformAnswer.Unknown(
                            LinkedInErrors.error(status, response, body, "LinkedIn could not list the author's posts"));
                });
    }

    /**
     * One look at an uploaded video: still processing waits, {@code AVAILABLE} is posted (once:
     * {@link PublicationLedger#postProcessed}), {@code PROCESSING_FAILED} is final.
     */
    private Uni<PlatformAnswer> checkVideo(
            PublishRequest request, ProviderAccess access, String urn, String commentary, String visibility) {
        return api.video(
                        PlatformResponses.bearer(access),
                        config.apiVersion(),
                        LinkedInApi.PROTOCOL_VERSION,
                        URLEncoder.encode(urn, StandardCharsets.UTF_8))
                .flatMap(response -> {
                    int status = response.getStatus();
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (status != 200) {
                        PlatformAnswer failure = LinkedInErrors.refusal(
                                status, response, body, "LinkedIn could not report the video's processing");
                        return Uni.createFrom().item(PlatformResponses.keptForNextCheck(failure));
                    }
                    String state = body.path("status").asText("");
                    if ("AVAILABLE".equals(state)) {
                        return ledger.postProcessed(
                                request,
                                urn,
                                () -> createPost(
                                        access,
                                        LinkedInRequests.withMedia(
                                                LinkedInRequests.postOf(
                                                        mapper, access.externalId(), commentary, visibility),
                                                urn,
                                                null)));
                    }
                    if ("PROCESSING_FAILED".equals(state)) {
                        Map<String, Object> details = new LinkedHashMap<>();
                        details.put("reason", "processing_failed");
                        details.put("video", urn);
                        String why = body.path("processingFailureReason").asText("");
                        if (!why.isEmpty()) {
                            details.put("processing_failure_reason", why);
                        }
                        return Uni.createFrom()
                                .item(new PlatformAnswer.Refused(LinkedInErrors.processingFailed(why, details)));
                    }
                    // PROCESSING, or WAITING_UPLOAD while LinkedIn assembles the parts.
                    return Uni.createFrom().item(new PlatformAnswer.Processing(urn));
                });
    }

    private static PlatformAnswer published(String urn) {
        return new PlatformAnswer.Published(urn, urn == null ? null : POST_URL + urn + "/");
    }
}
