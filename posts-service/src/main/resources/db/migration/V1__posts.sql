-- Posts and their targets. A post is queued until it is due (its scheduled time, or acceptance for an
-- immediate post), then handed to delivery (publishing), then final.
create table posts (
    id               text        primary key,
    workspace_id     text        not null,
    mode             text        not null,
    text             text        not null,
    media_url        text,
    media_type       text,
    scheduled_at     timestamptz,
    due_at           timestamptz not null,
    platform_options jsonb       not null default '{}',
    status           text        not null,
    created_at       timestamptz not null,
    updated_at       timestamptz not null,
    dispatched_at    timestamptz,
    finalized_at     timestamptz
);
create index posts_listing on posts (workspace_id, mode, created_at desc, id desc);
-- The dispatcher's work: queued posts by due time.
create index posts_due on posts (due_at) where status = 'queued';

create table post_targets (
    post_id          text        not null references posts (id),
    position         integer     not null,
    account_id       text        not null,
    platform         text        not null,
    -- The account's profile when the post was accepted: history keeps it after the account moves.
    profile_id       text,
    account_username text        not null,
    reservation_id   text        not null,
    status           text        not null,
    attempts         integer     not null default 0,
    provider_post_id text,
    url              text,
    error            jsonb,
    completed_at     timestamptz,
    updated_at       timestamptz not null,
    primary key (post_id, account_id)
);
create index post_targets_account on post_targets (account_id, post_id);
create index post_targets_profile on post_targets (profile_id, post_id) where profile_id is not null;

-- POST /posts idempotency (DESIGN section 3): a key is claimed while its request is in flight and completed
-- with the accepted post's response; refused requests give their claim back.
create table idempotency_keys (
    workspace_id     text        not null,
    mode             text        not null,
    key              text        not null,
    fingerprint      text        not null,
    state            text        not null,
    claim_token      text        not null,
    post_id          text,
    response         text,
    claimed_at       timestamptz not null,
    expires_at       timestamptz not null,
    primary key (workspace_id, mode, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);

-- Holds this service put on profiles (pending posts block profile deletion) that are to be given back to
-- profiles-service; written in the transaction that made the post final.
create table profile_hold_releases (
    profile_id       text        not null,
    post_id          text        not null,
    workspace_id     text        not null,
    mode             text        not null,
    created_at       timestamptz not null default now(),
    primary key (profile_id, post_id)
);

-- Events consumed, recorded in the transaction of their effect.
create table processed_events (
    event_id         text        primary key,
    processed_at     timestamptz not null default now()
);

create table outbox (
    id            bigserial primary key,
    event_id      text        not null unique,
    topic         text        not null,
    message_key   text        not null,
    payload       jsonb       not null,
    created_at    timestamptz not null default now(),
    published_at  timestamptz
);
create index outbox_unpublished on outbox (id) where published_at is null;
