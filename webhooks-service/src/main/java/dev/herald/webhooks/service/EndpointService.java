package dev.herald.webhooks.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.webhooks.config.WebhooksConfig;
import dev.herald.webhooks.delivery.WebhookSender;
import dev.herald.webhooks.model.EndpointChanges;
import dev.herald.webhooks.repository.EndpointStatements;
import dev.herald.webhooks.repository.EventStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Webhook endpoints: create, read, change, disable, rotate the secret, send a test event. */
@ApplicationScoped
public class EndpointService {
    static final String CURSOR_KIND = "webhook_endpoints";

    private final EndpointStatements endpoints;
    private final EventStatements events;
    private final ReceiverAddresses addresses;
    private final SigningSecrets secrets;
    private final EventBodies bodies;
    private final WebhookSender sender;
    private final CursorCodec cursors;
    private final WebhooksConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public EndpointService(
            EndpointStatements endpoints,
            EventStatements events,
            ReceiverAddresses addresses,
            SigningSecrets secrets,
            EventBodies bodies,
            WebhookSender sender,
            CursorCodec cursors,
            WebhooksConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.endpoints = endpoints;
        this.events = events;
        this.addresses = addresses;
        this.secrets = secrets;
        this.bodies = bodies;
        this.sender = sender;
        this.cursors = cursors;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * Creates an endpoint once its body is valid, its URL's host resolves to acceptable addresses (a refusal is a
     * 422 on {@code url}, reported with every other failing field; a pull endpoint has no URL), answering it with its
     * secret, the only time the secret is shown.
     */
    public Uni<WebhookEndpoint> create(
            String workspaceId,
            Mode mode,
            JsonBody body,
            String kind,
            String url,
            String description,
            List<String> subscribed) {
        Uni<Optional<String>> addressProblem = url == null
                ? Uni.createFrom().item(Optional.empty())
                : addresses
                        .vet(url)
                        .map(ignored -> Optional.<String>empty())
                        .onFailure(ReceiverAddresses.RefusedUrl.class)
                        .recoverWithItem(failure -> Optional.of(failure.getMessage()));
        return addressProblem.flatMap(problem -> {
            problem.ifPresent(message -> body.reject("url", "invalid_value", "url " + message + "."));
            body.validate();
            Instant now = Timestamps.now(clock);
            String id = ResourceIds.newId(IdPrefix.WEBHOOK_ENDPOINT);
            String secret = SigningSecrets.generate();
            WebhookEndpoint endpoint = new WebhookEndpoint(
                    id,
                    kind,
                    url,
                    description,
                    List.copyOf(subscribed),
                    WebhookEndpoint.ENABLED,
                    null,
                    mode,
                    now,
                    now,
                    null,
                    null);
            return endpoints
                    .insert(workspaceId, endpoint, secrets.seal(secret, id))
                    .map(created -> created.withSecret(secret));
        });
    }

    public Uni<ListEnvelope<WebhookEndpoint>> list(String workspaceId, Mode mode, String limit, String cursor) {
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, Map.of());
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        return endpoints
                .listPage(workspaceId, mode, page.after(), page.fetchSize())
                .map(rows -> Page.of(
                        rows, page, row -> new CursorPosition(row.createdAt(), row.id()), row -> row, scope, cursors));
    }

    public Uni<WebhookEndpoint> get(String workspaceId, Mode mode, String id) {
        return endpoints.find(workspaceId, mode, id).map(found -> found.orElseThrow(EndpointService::notFound));
    }

    /** Changes what was sent of description and events (a disabled endpoint too: it may be read, so it may be tidied). */
    public Uni<WebhookEndpoint> update(String workspaceId, Mode mode, String id, EndpointChanges changes) {
        if (changes.isEmpty()) {
            return get(workspaceId, mode, id);
        }
        return endpoints
                .update(workspaceId, mode, id, changes, Timestamps.now(clock))
                .map(found -> found.orElseThrow(EndpointService::notFound));
    }

    /** Disables the endpoint (idempotent): it receives nothing new, and its waiting retries fail. */
    public Uni<WebhookEndpoint> disable(String workspaceId, Mode mode, String id) {
        return endpoints
                .disable(workspaceId, mode, id, Timestamps.now(clock))
                .map(found -> found.orElseThrow(EndpointService::notFound));
    }

    /**
     * A new secret, answered once; the previous one keeps signing beside it for
     * {@code herald.webhooks.previous-secret-lifetime} (24 h), so receivers can switch without losing a delivery.
     */
    public Uni<WebhookEndpoint> rotateSecret(String workspaceId, Mode mode, String id) {
        Instant now = Timestamps.now(clock);
        String secret = SigningSecrets.generate();
        return endpoints
                .rotateSecret(
                        workspaceId, mode, id, secrets.seal(secret, id), now, now.plus(config.previousSecretLifetime()))
                .map(found -> found.orElseThrow(EndpointService::notFound).withSecret(secret));
    }

    /**
     * A signed {@code webhook.test} event to this endpoint alone, through the same delivery machinery (schedule,
     * retries, GET /deliveries). A disabled endpoint is a 409.
     */
    public Uni<WebhookDelivery> sendTest(String workspaceId, Mode mode, String id) {
        return get(workspaceId, mode, id).flatMap(endpoint -> {
            if (!WebhookEndpoint.ENABLED.equals(endpoint.status())) {
                throw disabled(endpoint);
            }
            Instant now = Timestamps.now(clock);
            String eventId = ResourceIds.newId(IdPrefix.EVENT);
            String body = bodies.body(
                    eventId,
                    WebhookEventTypes.TEST,
                    now,
                    mode,
                    mapper.createObjectNode().put("endpoint_id", id));
            return events.insertTest(workspaceId, mode, eventId, id, body, now).invoke(sender::nudge);
        });
    }

    static ApiException disabled(WebhookEndpoint endpoint) {
        return new ApiException(
                ErrorCode.CONFLICT,
                "The webhook endpoint is disabled.",
                Map.of("reason", "endpoint_disabled", "endpoint_id", endpoint.id()));
    }

    static ApiException notFound() {
        return ApiException.notFound("webhook endpoint");
    }
}
