-- The plan's concurrent media ingests per workspace, held across worker replicas: a workspace has slots 0..limit-1,
-- and a row is a slot some destination (its idempotency token) holds until leased_until. The uploading attempt
-- renews its lease while bytes move; a crashed worker's slot lapses and the next destination takes it.
create table media_ingest_slots (
    workspace_id  text        not null,
    slot          integer     not null,
    holder        text        not null,
    leased_until  timestamptz not null,
    primary key (workspace_id, slot)
);
create index media_ingest_slots_holder on media_ingest_slots (holder);

-- A YouTube resumable upload session per target (its idempotency token): the next attempt asks the session how far
-- it got rather than uploading again (YouTube's documented resumption; decision 123). size is the source's length
-- the session was opened for.
create table youtube_upload_sessions (
    token        text        primary key,
    session_uri  text        not null,
    size         bigint      not null,
    created_at   timestamptz not null
);
