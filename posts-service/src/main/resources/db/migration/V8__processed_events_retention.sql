-- Processed event ids are forgotten once past herald.processed-events.retention (ProcessedEventRetention, decision 193),
-- oldest first: this index finds them without reading the whole table.
create index processed_events_processed_at on processed_events (processed_at);
