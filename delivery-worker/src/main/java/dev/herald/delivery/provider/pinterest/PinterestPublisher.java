package dev.herald.delivery.provider.pinterest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.net.PlatformAnswerFilter;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.PinterestConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.StreamingHttp;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Live pins through Pinterest's API v5 on the post's {@code board_id} (and {@code board_section_id}), with its
 * {@code title}, {@code link} and {@code alt_text} options and the post's text as the description. Trial apps call the
 * sandbox host, for every call below.
 * <ul>
 *   <li>Image pins: {@code POST /v5/pins} with {@code media_source.source_type: image_url}, so
 *       Pinterest fetches the image itself.</li>
 *   <li>Carousel pins (2 to 5 images): {@code media_source.source_type: multiple_image_urls} with one
 *       {@code items[{url}]} entry per image in the post's order; Pinterest fetches them itself.</li>
 *   <li>Video pins (a post whose one item is a video): {@code POST /v5/media} registers an upload, the file is streamed from the media
 *       URL ({@link MediaIngest}) to the answered {@code upload_url} as a multipart form (its {@code upload_parameters}
 *       as fields, then {@code file}), and the attempt ends {@link PlatformAnswer.Processing}; later attempts ask
 *       {@code GET /v5/media/{media_id}} ({@code registered}/{@code processing} wait, {@code failed} is final) and on
 *       {@code succeeded} create the pin with {@code media_source.source_type: video_id}, the {@code media_id} and
 *       {@code cover_image_key_frame_time} ({@link PublicationLedger#postProcessed}: once).</li>
 * </ul>
 * Pinterest takes no idempotency key, so {@link PublicationLedger} drives the calls; after an unknown outcome the next
 * attempt looks through the board's latest pins for the same description. 401 is a refused token, 429 and 5xx are
 * retryable (a 5xx may have created the pin), other 4xx (a board that does not exist, an image Pinterest cannot
 * fetch) are final with Pinterest's message. Nothing before the pin call publishes anything, so a failed registration
 * or upload is a refusal and the next attempt uploads anew.
 */
@ApplicationScoped
public class PinterestPublisher implements Publisher {
    private static final String PIN_URL = "https://www.pinterest.com/pin/";
    private static final List<String> PASSED_OPTIONS = List.of("board_section_id", "title", "link", "alt_text");
    private static final String CRLF = "\r\n";

    private final PinterestApi api;
    private final PublicationLedger ledger;
    private final MediaIngest ingest;
    private final PinterestConfig config;
    private final ObjectMapper mapper;

    public PinterestPublisher(
            PublicationLedger ledger, MediaIngest ingest, PinterestConfig config, ObjectMapper mapper) {
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.trialAccess() ? config.sandboxApiUrl() : config.apiUrl()))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(new PlatformAnswerFilter())
                .build(PinterestApi.class);
        this.ledger = ledger;
        this.ingest = ingest;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.PINTEREST;
    }

    @Override
    public boolean ingestsMedia() {
        return true;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.medium();
        if (media == null) {
            // posts-service refuses Pinterest posts without media; this only guards against a hand-made event.
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "Pinterest pins need an image or a video; nothing was sent to Pinterest.",
                                    false,
                                    Map.of("platform", "pinterest"))
                            .as(TargetError.CATEGORY_MEDIA, TargetError.ACTION_REPLACE_MEDIA)));
        }
        if (request.media().size() > 1
                && request.media().stream().anyMatch(item -> !Post.Media.IMAGE.equals(item.type()))) {
            // posts-service refuses a video among several items for Pinterest; this guards a hand-made event.
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "Pinterest carousels take images only; nothing was sent to Pinterest.",
                            false,
                            Map.of(
                                    "platform",
                                    "pinterest",
                                    "media_count",
                                    request.media().size()))));
        }
        String boardId = request.platformOptions().path("board_id").asText("");
        String description = request.text() == null ? "" : request.text();
        ObjectNode pin = mapper.createObjectNode();
        pin.put("board_id", boardId);
        for (String option : PASSED_OPTIONS) {
            if (request.platformOptions().hasNonNull(option)) {
                pin.set(option, request.platformOptions().get(option));
            }
        }
        pin.put("description", description);
        if (Post.Media.VIDEO.equals(media.type())) {
            return ledger.publishUploading(
                    request,
                    ingest,
                    source -> new PlatformCalls(
                            access -> uploadVideo(access, source),
                            access -> findPin(access, boardId, description),
                            (access, mediaId) -> checkVideo(request, access, mediaId, pin),
                            new PlatformCalls.ProcessingLimits(
                                    config.videoCheckInterval(), config.videoProcessingDeadline(), true),
                            false));
        }
        if (request.media().size() > 1) {
            ArrayNode items = pin.putObject("media_source")
                    .put("source_type", "multiple_image_urls")
                    .putArray("items");
            request.media().forEach(item -> items.addObject().put("url", item.url()));
        } else {
            pin.putObject("media_source").put("source_type", "image_url").put("url", media.url());
        }
        return ledger.publish(
                request,
                new PlatformCalls(access -> createPin(access, pin), access -> findPin(access, boardId, description)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPin(ProviderAccess access, ObjectNode pin) {
        String body = json(pin);
        return api.createPin(PlatformResponses.bearer(access), body).map(response -> {
            int status = response.getStatus();
            JsonNode answer = PlatformResponses.body(mapper, response);
            if (status / 100 == 2 && answer.hasNonNull("id")) {
                return published(answer.get("id").asText());
            }
            return PinterestErrors.answer(status, response, answer, "Pinterest refused the pin");
        });
    }

    /** Registers the upload and streams the file; {@link PlatformAnswer.Processing} with the media id once Pinterest has it. */
    private Uni<PlatformAnswer> uploadVideo(ProviderAccess access, MediaSource.Located source) {
        return api.registerMedia(
                        PlatformResponses.bearer(access),
                        json(mapper.createObjectNode().put("media_type", "video")))
                .flatMap(response -> {
                    int status = response.getStatus();
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (status / 100 != 2 || !body.hasNonNull("media_id") || !body.hasNonNull("upload_url")) {
                        PlatformAnswer failure = PinterestErrors.answer(
                                status, response, body, "Pinterest refused to register the video upload");
                        // A registration publishes nothing, whatever its answer.
                        return Uni.createFrom()
                                .item(
                                        failure instanceof PlatformAnswer.Unknown unknown
                                                ? new PlatformAnswer.Refused(unknown.error())
                                                : failure);
                    }
                    String mediaId = body.get("media_id").asText();
                    String boundary = "herald-" + UUID.randomUUID().toString().replace("-", "");
                    Buffer before = formFields(boundary, body.path("upload_parameters"), source.contentType());
                    Buffer after = Buffer.buffer(CRLF + "--" + boundary + "--" + CRLF);
                    return ingest.sources()
                            .open(source, 0)
                            .flatMap(file -> ingest.http().stream(
                                    HttpMethod.POST,
                                    StreamingHttp.Endpoint.of(
                                            body.get("upload_url").asText()),
                                    Map.of("Content-Type", "multipart/form-data; boundary=" + boundary),
                                    before,
                                    source.size(),
                                    file,
                                    after,
                                    () -> StreamingHttp.discard(file)))
                            .map(answer -> answer.status() / 100 == 2
                                    ? (PlatformAnswer) new PlatformAnswer.Processing(mediaId)
                                    : PlatformResponses.uploadRefused(
                                            answer, "Pinterest's upload host refused the video"))
                            .onFailure()
                            .recoverWithItem(failure -> PlatformResponses.brokenUpload("Pinterest", failure));
                });
    }

    /** The form up to the file's bytes: every upload parameter as a field, in Pinterest's order, then the file's part header. */
    static Buffer formFields(String boundary, JsonNode parameters, String contentType) {
        StringBuilder form = new StringBuilder();
        parameters
                .fields()
                .forEachRemaining(field -> form.append("--")
                        .append(boundary)
                        .append(CRLF)
                        .append("Content-Disposition: form-data; name=\"")
                        .append(field.getKey())
                        .append('"')
                        .append(CRLF)
                        .append(CRLF)
                        .append(field.getValue().asText())
                        .append(CRLF));
        form.append("--")
                .append(boundary)
                .append(CRLF)
                .append("Content-Disposition: form-data; name=\"file\"; filename=\"video\"")
                .append(CRLF)
                .append("Content-Type: ")
                .append(contentType)
                .append(CRLF)
                .append(CRLF);
        return Buffer.buffer(form.toString());
    }

    /**
     * One look at an uploaded video: {@code registered} or {@code processing} waits, {@code succeeded} is pinned (once:
     * {@link PublicationLedger#postProcessed}), {@code failed} is final.
     */
    private Uni<PlatformAnswer> checkVideo(
            PublishRequest request, ProviderAccess access, String mediaId, ObjectNode pin) {
        return api.media(PlatformResponses.bearer(access), mediaId).flatMap(response -> {
            int status = response.getStatus();
            JsonNode body = PlatformResponses.body(mapper, response);
            if (status != 200) {
                PlatformAnswer failure = PinterestErrors.answer(
                        status, response, body, "Pinterest could not report the video's processing");
                return Uni.createFrom().item(PlatformResponses.keptForNextCheck(failure));
            }
            String state = body.path("status").asText("");
            if ("succeeded".equals(state)) {
                ObjectNode videoPin = pin.deepCopy();
                videoPin.putObject("media_source")
                        .put("source_type", "video_id")
                        .put("cover_image_key_frame_time", config.videoCoverKeyFrameTime())
                        .put("media_id", mediaId);
                return ledger.postProcessed(request, mediaId, () -> createPin(access, videoPin));
            }
            if ("failed".equals(state)) {
                return Uni.createFrom().item(new PlatformAnswer.Refused(PinterestErrors.videoFailed(mediaId)));
            }
            return Uni.createFrom().item(new PlatformAnswer.Processing(mediaId));
        });
    }

    private String json(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Pinterest request cannot be serialized", e);
        }
    }

    private Uni<PlatformAnswer> findPin(ProviderAccess access, String boardId, String description) {
        if (description.isBlank()) {
            return Uni.createFrom().item(PlatformResponses.unconfirmed("Pinterest", "the board", Map.of()));
        }
        return api.boardPins(PlatformResponses.bearer(access), boardId, config.reconcileWindow())
                .map(response -> {
                    int status = response.getStatus();
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (status != 200) {
                        PlatformAnswer failure = PinterestErrors.answer(
                                status, response, body, "Pinterest could not list the board's pins");
                        return failure instanceof PlatformAnswer.Refused refused
                                        && !refused.error().retryable()
                                ? PlatformResponses.unconfirmed(
                                        "Pinterest",
                                        "the board",
                                        refused.error().details())
                                : failure;
                    }
                    for (JsonNode item : body.path("items")) {
                        if (description.equals(item.path("description").asText(null)) && item.hasNonNull("id")) {
                            return published(item.get("id").asText());
                        }
                    }
                    return new PlatformAnswer.NotFound();
                });
    }

    private static PlatformAnswer published(String id) {
        return new PlatformAnswer.Published(id, PIN_URL + id + "/");
    }
}
