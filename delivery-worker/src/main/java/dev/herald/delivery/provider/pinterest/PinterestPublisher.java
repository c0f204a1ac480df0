package dev.herald.delivery.provider.pinterest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
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
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Live image pins through Pinterest's API v5 ({@code POST /v5/pins} with {@code media_source.source_type: image_url},
 * so Pinterest fetches the image itself) on the post's {@code board_id} (and {@code board_section_id}), with its
 * {@code title}, {@code link} and {@code alt_text} options and the post's text as the description (decision 117).
 * Video pins need Pinterest's media upload and come with the media-ingest slice: until then they fail with
 * {@code publisher_unavailable}. Trial apps pin on the sandbox host.
 * <p>
 * Pinterest takes no idempotency key, so {@link PublicationLedger} drives the calls; after an unknown outcome the next
 * attempt looks through the board's latest pins for the same description. 401 is a refused token, 429 and 5xx are
 * retryable (a 5xx may have created the pin), other 4xx (a board that does not exist, an image Pinterest cannot
 * fetch) are final with Pinterest's message.
 */
@ApplicationScoped
public class PinterestPublisher implements Publisher {
    private static final String PIN_URL = "https://www.pinterest.com/pin/";
    private static final List<String> PASSED_OPTIONS = List.of("board_section_id", "title", "link", "alt_text");

    private final PinterestApi api;
    private final PublicationLedger ledger;
    private final PinterestConfig config;
    private final ObjectMapper mapper;

    public PinterestPublisher(PublicationLedger ledger, PinterestConfig config, ObjectMapper mapper) {
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.trialAccess() ? config.sandboxApiUrl() : config.apiUrl()))
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .build(PinterestApi.class);
        this.ledger = ledger;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.PINTEREST;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.media();
        if (media == null || !Post.Media.IMAGE.equals(media.type())) {
            // Acceptance requires media for Pinterest; a video needs Pinterest's upload, not built yet.
            return Uni.createFrom().item(PublishOutcome.failed(new TargetError(TargetError.PUBLISHER_UNAVAILABLE,
                    "Pinterest video pins are not available in this Herald build yet (image pins are); nothing was sent"
                            + " to Pinterest.", false, Map.of("platform", "pinterest", "media_type", media == null ? "none" : media.type()))));
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
        pin.putObject("media_source").put("source_type", "image_url").put("url", media.url());
        return ledger.publish(request, new PlatformCalls(
                access -> createPin(access, pin),
                access -> findPin(access, boardId, description)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPin(ProviderAccess access, ObjectNode pin) {
        String body;
        try {
            body = mapper.writeValueAsString(pin);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("a pin cannot be serialized", e));
        }
        return api.createPin(PlatformResponses.bearer(access), body).map(response -> {
            int status = response.getStatus();
            JsonNode answer = PlatformResponses.body(mapper, response);
            if (status / 100 == 2 && answer.hasNonNull("id")) {
                return published(answer.get("id").asText());
            }
            return failure(status, response, answer, "Pinterest refused the pin");
        });
    }

    private Uni<PlatformAnswer> findPin(ProviderAccess access, String boardId, String description) {
        if (description.isBlank()) {
            return Uni.createFrom().item(PlatformResponses.unconfirmed("Pinterest", "the board", Map.of()));
        }
        return api.boardPins(PlatformResponses.bearer(access), boardId, config.reconcileWindow()).map(response -> {
            int status = response.getStatus();
            JsonNode body = PlatformResponses.body(mapper, response);
            if (status != 200) {
                PlatformAnswer failure = failure(status, response, body, "Pinterest could not list the board's pins");
                return failure instanceof PlatformAnswer.Refused refused && !refused.error().retryable()
                        ? PlatformResponses.unconfirmed("Pinterest", "the board", refused.error().details()) : failure;
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

    /** Pinterest's errors: {@code {"code": <int>, "message": "..."}}. */
    private static PlatformAnswer failure(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.path("code").isNumber()) {
            details.put("provider_code", String.valueOf(body.get("code").asInt()));
        }
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String message = body.path("message").asText("");
        String text = PlatformResponses.message(what, status, message);
        if (status == 401) {
            return new PlatformAnswer.TokenRefused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
        }
        if (status == 429) {
            return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        if (status >= 500 || status / 100 == 2) {
            return new PlatformAnswer.Unknown(new TargetError(TargetError.PROVIDER_ERROR, text, true, details));
        }
        return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, text, false, details));
    }
}
