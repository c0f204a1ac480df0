-- Final deliveries are deleted herald.delivery.retention after they completed (DeliveryRetention), with the
-- providers' memory of their publish calls. This index lets the purge read only what it deletes.
create index deliveries_final on deliveries (completed_at) where status in ('published', 'failed');
