-- post.accepted events already applied (recorded in the same transaction as their deliveries, so a
-- redelivered event changes nothing).
create table processed_events (
    event_id      text        primary key,
    processed_at  timestamptz not null
);

-- One row per target of a post: what delivering it needs, copied from post.accepted (the worker never asks
-- posts-service), and where its delivery stands.
--   pending     waiting for next_attempt_at (a retry, or a usage check that could not be made)
--   publishing  leased by a worker until lease_until; a lapsed lease means that worker died, and any worker
--               may claim the row again
--   published, failed  final; target.completed went to the outbox in the same transaction
--   uncertain   final: the provider was called, the worker died before it learned the answer, and no attempt
--               was left to ask again (the target keeps its reservation until reconciled)
create table deliveries (
    post_id           text        not null,
    account_id        text        not null,
    workspace_id      text        not null,
    mode              text        not null check (mode in ('test', 'live')),
    platform          text        not null check (platform in ('tiktok', 'instagram', 'facebook', 'youtube', 'pinterest', 'linkedin')),
    account_username  text,
    reservation_id    text        not null,
    text              text,
    media_url         text,
    media_type        text,
    -- The post's platform_options entry for this target's platform ({} when none).
    platform_options  jsonb       not null,
    status            text        not null check (status in ('pending', 'publishing', 'published', 'failed', 'uncertain')),
    -- Provider calls made (counted when a call starts, so an interrupted call counts too).
    attempts          integer     not null default 0,
    -- Consecutive postponements because usage-service could not answer; they are not attempts.
    deferrals         integer     not null default 0,
    next_attempt_at   timestamptz,
    lease_token       uuid,
    lease_until       timestamptz,
    provider_post_id  text,
    url               text,
    -- The last failure (TargetError as JSON): final on failed and uncertain rows, the reason for the retry on
    -- pending ones.
    last_error        jsonb,
    source_event_id   text        not null,
    created_at        timestamptz not null,
    updated_at        timestamptz not null,
    completed_at      timestamptz,
    primary key (post_id, account_id),
    check ((status = 'pending') = (next_attempt_at is not null)),
    check ((status = 'publishing') = (lease_token is not null and lease_until is not null)),
    check ((status in ('published', 'failed', 'uncertain')) = (completed_at is not null))
);
-- The claim loop's two questions: which pending rows are due, which leases have lapsed.
create index deliveries_pending_due on deliveries (next_attempt_at) where status = 'pending';
create index deliveries_leases on deliveries (lease_until) where status = 'publishing';

-- The sandbox provider's own memory (test mode), keyed like a real provider's idempotency key: one row per
-- publish token (post id + account id), however often it is called. provider_post_id is set once the sandbox
-- has published (null while every call failed), and never changes after that.
create table sandbox_publications (
    token             text        primary key,
    provider_post_id  text,
    publish_calls     integer     not null,
    created_at        timestamptz not null,
    last_called_at    timestamptz not null
);

-- Events wait here until the relay has handed them to Kafka (same transaction as the change).
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
