-- Delivery records and the events they carried are kept for herald.webhooks.retention (30 days), then deleted
-- (WebhookRetention). These indexes let the purge read only what it deletes: final deliveries by when they last
-- changed, events by when they were created.
create index deliveries_final on deliveries (updated_at) where status <> 'pending';
create index events_created on events (created_at);
