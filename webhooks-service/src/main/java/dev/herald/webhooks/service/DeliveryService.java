package dev.herald.webhooks.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.webhooks.delivery.WebhookSender;
import dev.herald.webhooks.model.DeliveryFilters;
import dev.herald.webhooks.repository.DeliveryStatements;
import dev.herald.webhooks.repository.EndpointStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** The delivery log, manual redelivery, and an endpoint's events feed. */
@ApplicationScoped
public class DeliveryService {
    static final String CURSOR_KIND = "webhook_deliveries";
    static final String FEED_CURSOR_KIND = "webhook_endpoint_events";

    private final DeliveryStatements deliveries;
    private final EndpointStatements endpoints;
    private final WebhookSender sender;
    private final CursorCodec cursors;
    private final ObjectMapper mapper;
    private final Clock clock;

    public DeliveryService(
            DeliveryStatements deliveries,
            EndpointStatements endpoints,
            WebhookSender sender,
            CursorCodec cursors,
            ObjectMapper mapper,
            Clock clock) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.sender = sender;
        this.cursors = cursors;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** Newest first; an {@code endpoint_id} that is not an endpoint of the tenant is a 404, as for any named resource. */
    public Uni<ListEnvelope<WebhookDelivery>> list(
            String workspaceId, Mode mode, DeliveryFilters filters, String limit, String cursor) {
        Map<String, String> scoped = new HashMap<>();
        scoped.put("endpoint_id", filters.endpointId());
        scoped.put("event_id", filters.eventId());
        scoped.put("status", filters.status());
        CursorScope scope = CursorScope.of(CURSOR_KIND, workspaceId, mode, scoped);
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        Uni<Boolean> endpointKnown = filters.endpointId() == null
                ? Uni.createFrom().item(true)
                : endpoints.exists(workspaceId, mode, filters.endpointId());
        return endpointKnown
                .flatMap(known -> {
                    if (!known) {
                        throw EndpointService.notFound();
                    }
                    return deliveries.listPage(workspaceId, mode, filters, page.after(), page.fetchSize());
                })
                .map(rows -> Page.of(
                        rows, page, row -> new CursorPosition(row.createdAt(), row.id()), row -> row, scope, cursors));
    }

    /**
     * The events delivered to an endpoint (a pull endpoint's only way to receive them; a push endpoint's show what it
     * was sent), newest first, each exactly as its deliveries carry it. 404 for an endpoint that is not the tenant's.
     */
    public Uni<ListEnvelope<JsonNode>> eventsOfEndpoint(
            String workspaceId, Mode mode, String endpointId, String limit, String cursor) {
        CursorScope scope = CursorScope.of(FEED_CURSOR_KIND, workspaceId, mode, Map.of("endpoint_id", endpointId));
        PageRequest page = PageRequest.parse(limit, cursor, scope, cursors);
        return endpoints
                .exists(workspaceId, mode, endpointId)
                .flatMap(known -> {
                    if (!known) {
                        throw EndpointService.notFound();
                    }
                    return deliveries.eventsOfEndpoint(workspaceId, mode, endpointId, page.after(), page.fetchSize());
                })
                .map(rows -> Page.of(
                        rows,
                        page,
                        row -> new CursorPosition(row.createdAt(), row.deliveryId()),
                        row -> parse(row.payload()),
                        scope,
                        cursors));
    }

    private JsonNode parse(String payload) {
        try {
            return mapper.readTree(payload);
        } catch (JsonProcessingException e) {
            // Herald wrote every stored body itself (EventBodies).
            throw new IllegalStateException("a stored webhook event body is not JSON", e);
        }
    }

    /**
     * Attempts a failed delivery once more, now (same event id and body, freshly signed); if that attempt fails the
     * delivery is failed again. A delivery that is not failed, or whose endpoint is disabled, is a 409.
     */
    public Uni<WebhookDelivery> retry(String workspaceId, Mode mode, String id) {
        return deliveries.retry(workspaceId, mode, id, Timestamps.now(clock)).map(result -> {
            if (result.refusal() == null) {
                sender.nudge();
                return result.delivery();
            }
            throw switch (result.refusal()) {
                case NOT_FOUND -> ApiException.notFound("delivery");
                case NOT_FAILED ->
                    new ApiException(
                            ErrorCode.CONFLICT,
                            "Only a failed delivery can be retried; this one is "
                                    + result.delivery().status() + ".",
                            Map.of(
                                    "reason",
                                    "delivery_not_failed",
                                    "status",
                                    result.delivery().status()));
                case ENDPOINT_DISABLED ->
                    new ApiException(
                            ErrorCode.CONFLICT,
                            "The delivery's webhook endpoint is disabled.",
                            Map.of(
                                    "reason",
                                    "endpoint_disabled",
                                    "endpoint_id",
                                    result.delivery().endpointId()));
            };
        });
    }
}
