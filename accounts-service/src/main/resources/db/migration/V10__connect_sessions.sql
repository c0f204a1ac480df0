-- Hosted connection links. The capability token is never stored: token_hash is its SHA-256 (hex), so a
-- database leak does not hand out working links. `expired` is not a stored status: a session is expired
-- from expires_at on, whatever the clock says when it is read or used.
create table connect_sessions (
    id            text        primary key,
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    profile_id    text        not null,
    -- Offered platforms' wire names, comma-separated, in the order the customer gave (or the catalog's).
    platforms     text        not null,
    redirect_url  text,
    embed_origin  text,
    token_hash    text        not null unique,
    status        text        not null check (status in ('open', 'completed', 'revoked')),
    -- Connected account ids, comma-separated, in connection order; only ever appended under the row lock.
    account_ids   text        not null default '',
    expires_at    timestamptz not null,
    completed_at  timestamptz,
    revoked_at    timestamptz,
    created_at    timestamptz not null,
    updated_at    timestamptz not null,
    check ((status = 'completed') = (completed_at is not null)),
    check ((status = 'revoked') = (revoked_at is not null))
);
-- Deleting a profile revokes its open sessions.
create index connect_sessions_open_by_profile on connect_sessions (workspace_id, mode, profile_id) where status = 'open';

-- profile.events already applied to connect sessions (consumers deduplicate by event id, in the same
-- transaction as the effect).
create table connect_session_processed_events (
    event_id      text        primary key,
    processed_at  timestamptz not null default now()
);
