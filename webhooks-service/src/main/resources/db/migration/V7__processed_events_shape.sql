-- processed_events takes the shape it has in every service (common's ProcessedEvents): processed_at defaults to the
-- database's now(), the clock ProcessedEventRetention compares it with, so statements record only the event id.
alter table processed_events alter column processed_at set default now();
