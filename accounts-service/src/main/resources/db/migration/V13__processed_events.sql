-- The profile events applied to connect sessions are recorded under the name every other consumer uses, so
-- common's ProcessedEventRetention forgets them after herald.processed-events.retention like everywhere else
-- (decision 200); the processed_at index lets that purge read only what it deletes.
alter table connect_session_processed_events rename to processed_events;
alter index connect_session_processed_events_pkey rename to processed_events_pkey;
create index processed_events_processed_at on processed_events (processed_at);
