-- Kafka events this service has applied (target.completed, post.finalized), recorded in the transaction that
-- applied them: a redelivered event finds its id here and changes nothing.
create table processed_events (
    event_id      text        primary key,
    topic         text        not null,
    processed_at  timestamptz not null default now()
);
