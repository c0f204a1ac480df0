package dev.herald.webhooks.model;

/** The filters of {@code GET /deliveries}; null means not filtered. */
public record DeliveryFilters(String endpointId, String eventId, String status) {}
