package dev.herald.webhooks.service;

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

/** The delivery log and manual redelivery. */
@ApplicationScoped
public class DeliveryService {
    static final String CURSOR_KIND = "webhook_deliveries";

    private final DeliveryStatements deliveries;
    private final EndpointStatements endpoints;
    private final WebhookSender sender;
    private final CursorCodec cursors;
    private final Clock clock;

    public DeliveryService(
            DeliveryStatements deliveries,
            EndpointStatements endpoints,
            WebhookSender sender,
            CursorCodec cursors,
            Clock clock) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.sender = sender;
        this.cursors = cursors;
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
