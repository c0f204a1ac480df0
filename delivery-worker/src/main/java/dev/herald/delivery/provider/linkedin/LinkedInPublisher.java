package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import dev.herald.delivery.provider.media.StreamingHttp;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Live LinkedIn posts through the versioned Posts API, as the member or organization the account is (its URN is the
 * account's external id): text posts, and posts with an image or a video uploaded through LinkedIn's
 * Images and Videos APIs, the bytes streamed from the media URL by {@link MediaIngest}:
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
    private final LinkedInConfig config;
    private final ObjectMapper mapper;

    public LinkedInPublisher(
            @RestClient LinkedInApi api,
            PublicationLedger ledger,
            MediaIngest ingest,
            LinkedInConfig config,
            ObjectMapper mapper) {
        this.api = api;
        this.ledger = ledger;
        this.ingest = ingest;
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
        Post.Media media = request.media();
        if (media == null) {
            return ledger.publish(
                    request,
                    new PlatformCalls(
                            access -> createPost(access, postOf(access.externalId(), commentary, visibility)),
                            access -> findPost(access, commentary)));
        }
        if (Post.Media.VIDEO.equals(media.type())) {
            return ledger.publishUploading(
                    request,
                    ingest,
                    source -> new PlatformCalls(
                            access -> uploadVideo(access, source),
                            access -> findPost(access, commentary),
                            (access, videoUrn) -> checkVideo(request, access, videoUrn, commentary, visibility),
                            new PlatformCalls.ProcessingLimits(
                                    config.videoCheckInterval(), config.videoProcessingDeadline(), true),
                            false));
        }
        String altText = options.path("alt_text").asText(null);
        return ledger.publishUploading(
                request,
                ingest,
                source -> new PlatformCalls(
                        access -> uploadImage(access, source)
                                .flatMap(uploaded -> uploaded.refusal() != null
                                        ? Uni.createFrom().item(uploaded.refusal())
                                        : createPost(
                                                access,
                                                withMedia(
                                                        postOf(access.externalId(), commentary, visibility),
                                                        uploaded.urn(),
                                                        altText))),
                        access -> findPost(access, commentary)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPost(ProviderAccess access, ObjectNode post) {
        String body = json(post);
        return api.createPost(PlatformResponses.bearer(access), config.apiVersion(), LinkedInApi.PROTOCOL_VERSION, body)
                .map(response -> {
                    int status = response.getStatus();
                    if (status == 201 || status == 200) {
                        String urn = response.getHeaderString("x-restli-id");
                        return published(urn != null ? urn : response.getHeaderString("x-linkedin-id"));
                    }
                    JsonNode answer = PlatformResponses.body(mapper, response);
                    if (status == 401) {
                        return new PlatformAnswer.TokenRefused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "LinkedIn refused the access token (HTTP 401), also after it was refreshed.",
                                false,
                                details(status, answer)));
                    }
                    TargetError error = error(status, response, answer, "LinkedIn refused the post");
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
                        return new PlatformAnswer.TokenRefused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "LinkedIn refused the access token (HTTP 401), also after it was refreshed.",
                                false,
                                details(status, body)));
                    }
                    if (status == 403) {
                        // Members' posts need r_member_social, which LinkedIn grants few apps.
                        return PlatformResponses.unconfirmed("LinkedIn", "the author's profile", details(status, body));
                    }
                    return new PlatformAnswer.Unknown(
                            error(status, response, body, "LinkedIn could not list the author's posts"));
                });
    }

    /** An uploaded image's URN, or the refusal that ended its upload (nothing was posted either way). */
    private record UploadedImage(String urn, PlatformAnswer refusal) {}

    private Uni<UploadedImage> uploadImage(ProviderAccess access, MediaSource.Located source) {
        ObjectNode request = mapper.createObjectNode();
        request.putObject("initializeUploadRequest").put("owner", access.externalId());
        return mediaAction(access, "images", "initializeUpload", request).flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            JsonNode value = body.path("value");
            if (response.getStatus() / 100 != 2 || !value.hasNonNull("uploadUrl") || !value.hasNonNull("image")) {
                return Uni.createFrom()
                        .item(new UploadedImage(
                                null,
                                refusal(
                                        response.getStatus(),
                                        response,
                                        body,
                                        "LinkedIn refused to start the image upload")));
            }
            String urn = value.get("image").asText();
            Map<String, String> headers =
                    Map.of("Authorization", PlatformResponses.bearer(access), "Content-Type", source.contentType());
            return ingest.sources()
                    .open(source, 0)
                    .flatMap(file -> ingest.http().stream(
                            HttpMethod.PUT,
                            StreamingHttp.Endpoint.of(value.get("uploadUrl").asText()),
                            headers,
                            source.size(),
                            file))
                    .map(answer -> answer.status() / 100 == 2
                            ? new UploadedImage(urn, null)
                            : new UploadedImage(
                                    null,
                                    PlatformResponses.uploadRefused(answer, "LinkedIn refused the image's bytes")))
                    .onFailure()
                    .recoverWithItem(
                            failure -> new UploadedImage(null, PlatformResponses.brokenUpload("LinkedIn", failure)));
        });
    }

    /** One part of a video upload as LinkedIn's {@code uploadInstructions} give it. */
    record VideoPart(String uploadUrl, long firstByte, long lastByte) {
        long length() {
            return lastByte - firstByte + 1;
        }
    }

    /** Initializes, uploads every part and finalizes; {@link PlatformAnswer.Processing} with the video URN once LinkedIn has it all. */
    private Uni<PlatformAnswer> uploadVideo(ProviderAccess access, MediaSource.Located source) {
        ObjectNode request = mapper.createObjectNode();
        request.putObject("initializeUploadRequest")
                .put("owner", access.externalId())
                .put("fileSizeBytes", source.size())
                .put("uploadCaptions", false)
                .put("uploadThumbnail", false);
        return mediaAction(access, "videos", "initializeUpload", request).flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            JsonNode value = body.path("value");
            if (response.getStatus() / 100 != 2 || !value.hasNonNull("video")) {
                return Uni.createFrom()
                        .item(refusal(
                                response.getStatus(), response, body, "LinkedIn refused to start the video upload"));
            }
            String urn = value.get("video").asText();
            List<VideoPart> parts = parts(value.path("uploadInstructions"), source.size());
            if (parts == null) {
                return Uni.createFrom()
                        .item(new PlatformAnswer.Refused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "LinkedIn's upload instructions for the video do not cover its " + source.size()
                                        + " bytes;" + " nothing was posted.",
                                true,
                                Map.of("video", urn))));
            }
            List<String> etags = new ArrayList<>();
            return ingest.sources()
                    .open(source, 0)
                    .flatMap(file ->
                            sendParts(parts, 0, new SourceChunks(file), () -> StreamingHttp.discard(file), etags))
                    .flatMap(refused -> refused != null
                            ? Uni.createFrom().item(refused)
                            : finalizeVideo(
                                    access, urn, value.path("uploadToken").asText(""), etags))
                    .onFailure()
                    .recoverWithItem(failure -> PlatformResponses.brokenUpload("LinkedIn", failure));
        });
    }

    /**
     * The parts in byte order, or null unless they cover [0, size) without gaps or overlaps: bytes are sent as the
     * source streams them, once.
     */
    static List<VideoPart> parts(JsonNode instructions, long size) {
        List<VideoPart> parts = new ArrayList<>();
        for (JsonNode instruction : instructions) {
            if (!instruction.hasNonNull("uploadUrl")
                    || !instruction.path("firstByte").canConvertToLong()
                    || !instruction.path("lastByte").canConvertToLong()) {
                return null;
            }
            parts.add(new VideoPart(
                    instruction.get("uploadUrl").asText(),
                    instruction.get("firstByte").asLong(),
                    instruction.get("lastByte").asLong()));
        }
        parts.sort(Comparator.comparingLong(VideoPart::firstByte));
        long next = 0;
        for (VideoPart part : parts) {
            if (part.firstByte() != next || part.lastByte() < part.firstByte()) {
                return null;
            }
            next = part.lastByte() + 1;
        }
        return parts.isEmpty() || next != size ? null : parts;
    }

    /** Streams part {@code index} and the ones after it; null once LinkedIn took them all (their ETags in {@code etags}). */
    private Uni<PlatformAnswer> sendParts(
            List<VideoPart> parts, int index, SourceChunks slices, Runnable closeSource, List<String> etags) {
        if (index == parts.size()) {
            return Uni.createFrom().nullItem();
        }
        VideoPart part = parts.get(index);
        return ingest.http().stream(
                        HttpMethod.PUT,
                        StreamingHttp.Endpoint.of(part.uploadUrl()),
                        Map.of("Content-Type", "application/octet-stream"),
                        part.length(),
                        slices.next(part.length()),
                        closeSource)
                .flatMap(answer -> {
                    String etag = answer.header("ETag");
                    if (answer.status() / 100 != 2 || etag == null || etag.isBlank()) {
                        closeSource.run();
                        return Uni.createFrom()
                                .item(PlatformResponses.uploadRefused(
                                        answer,
                                        "LinkedIn refused part " + (index + 1) + " of " + parts.size()
                                                + " of the video"));
                    }
                    etags.add(etag);
                    return sendParts(parts, index + 1, slices, closeSource, etags);
                });
    }

    private Uni<PlatformAnswer> finalizeVideo(
            ProviderAccess access, String urn, String uploadToken, List<String> etags) {
        ObjectNode request = mapper.createObjectNode();
        ObjectNode finalize =
                request.putObject("finalizeUploadRequest").put("video", urn).put("uploadToken", uploadToken);
        etags.forEach(finalize.putArray("uploadedPartIds")::add);
        return mediaAction(access, "videos", "finalizeUpload", request)
                .map(response -> response.getStatus() / 100 == 2
                        ? new PlatformAnswer.Processing(urn)
                        // Not finalized, or its answer lost: either way the video is posted by no one, and is simply
                        // left behind.
                        : refusal(
                                response.getStatus(),
                                response,
                                PlatformResponses.body(mapper, response),
                                "LinkedIn refused to finalize the video upload"));
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
                        PlatformAnswer failure =
                                refusal(status, response, body, "LinkedIn could not report the video's processing");
                        return Uni.createFrom().item(PlatformResponses.keptForNextCheck(failure));
                    }
                    String state = body.path("status").asText("");
                    if ("AVAILABLE".equals(state)) {
                        return ledger.postProcessed(
                                request,
                                urn,
                                () -> createPost(
                                        access,
                                        withMedia(postOf(access.externalId(), commentary, visibility), urn, null)));
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
                                .item(new PlatformAnswer.Refused(new TargetError(
                                        TargetError.PROVIDER_ERROR,
                                        "LinkedIn could not process the video" + (why.isEmpty() ? "" : " (" + why + ")")
                                                + "; nothing was posted.",
                                        false,
                                        details)));
                    }
                    // PROCESSING, or WAITING_UPLOAD while LinkedIn assembles the parts.
                    return Uni.createFrom().item(new PlatformAnswer.Processing(urn));
                });
    }

    private Uni<Response> mediaAction(ProviderAccess access, String media, String action, ObjectNode request) {
        return api.mediaAction(
                PlatformResponses.bearer(access),
                config.apiVersion(),
                LinkedInApi.PROTOCOL_VERSION,
                media,
                action,
                json(request));
    }

    /** The post with its media: {@code content.media.id} the image or video URN, and an image's alternative text. */
    private static ObjectNode withMedia(ObjectNode post, String urn, String altText) {
        ObjectNode media = post.putObject("content").putObject("media");
        if (altText != null && !altText.isBlank()) {
            media.put("altText", altText);
        }
        media.put("id", urn);
        return post;
    }

    /** An answer before the post call: nothing was created, so a refusal (a 401 a refused token) whatever the status. */
    private static PlatformAnswer refusal(int status, Response response, JsonNode body, String what) {
        if (status == 401) {
            return new PlatformAnswer.TokenRefused(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    "LinkedIn refused the access token (HTTP 401), also after it was refreshed.",
                    false,
                    details(status, body)));
        }
        return new PlatformAnswer.Refused(error(status, response, body, what));
    }

    private String json(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a LinkedIn request cannot be serialized", e);
        }
    }

    private static PlatformAnswer published(String urn) {
        return new PlatformAnswer.Published(urn, urn == null ? null : POST_URL + urn + "/");
    }

    /** {@code visibility}: the post's LinkedIn option ({@code PUBLIC}, the default, or {@code CONNECTIONS}). */
    private ObjectNode postOf(String author, String commentary, String visibility) {
        ObjectNode post = mapper.createObjectNode();
        post.put("author", author);
        post.put("commentary", commentary);
        post.put("visibility", visibility);
        ObjectNode distribution = post.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        post.put("lifecycleState", "PUBLISHED");
        post.put("isReshareDisabledByAuthor", false);
        return post;
    }

    /** 429 and 5xx are worth another attempt; other refusals are LinkedIn's final word on this post. */
    private static TargetError error(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = details(status, body);
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String message = body.path("message").asText("");
        return new TargetError(
                TargetError.PROVIDER_ERROR,
                PlatformResponses.message(what, status, message),
                status == 429 || status >= 500,
                details);
    }

    private static Map<String, Object> details(int status, JsonNode body) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.hasNonNull("serviceErrorCode")) {
            details.put("provider_code", body.get("serviceErrorCode").asText());
        }
        return details;
    }
}
