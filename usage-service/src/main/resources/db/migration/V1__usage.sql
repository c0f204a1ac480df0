-- The plan of one workspace and mode. No row means free / free. A downgrade waits in pending_* until
-- pending_effective_at (the end of the period in which it was asked for).
create table subscriptions (
    workspace_id          text        not null,
    mode                  text        not null check (mode in ('test', 'live')),
    plan                  text        not null check (plan in ('free', 'starter', 'growth', 'scale')),
    plan_source           text        not null check (plan_source in ('subscription', 'comp', 'beta', 'free')),
    -- When this plan and source started: the anchor of monthly periods of a live subscription.
    started_at            timestamptz not null,
    grace_ends_at         timestamptz,
    pending_plan          text        check (pending_plan in ('free', 'starter', 'growth', 'scale')),
    pending_plan_source   text        check (pending_plan_source in ('subscription', 'comp', 'beta', 'free')),
    pending_effective_at  timestamptz,
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    primary key (workspace_id, mode),
    check ((pending_plan is null) = (pending_plan_source is null)
       and (pending_plan is null) = (pending_effective_at is null))
);

-- One row per meter and period. Reservations lock their row (select ... for update) and check
-- used + reserved + units against the plan's limit, so concurrent reservations never overshoot it.
create table usage_meters (
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    meter         text        not null check (meter in ('publications', 'media_bytes', 'comment_requests', 'new_connections')),
    period_start  timestamptz not null,
    period_end    timestamptz not null,
    used          bigint      not null default 0 check (used >= 0),
    reserved      bigint      not null default 0 check (reserved >= 0),
    updated_at    timestamptz not null,
    primary key (workspace_id, mode, meter, period_start)
);

-- Reservations by the caller's own id (unique per workspace and mode): a replayed reservation finds its row.
create table reservations (
    workspace_id           text        not null,
    mode                   text        not null check (mode in ('test', 'live')),
    id                     text        not null,
    meter                  text        not null check (meter in ('publications', 'media_bytes', 'comment_requests', 'new_connections')),
    units                  bigint      not null check (units >= 1),
    status                 text        not null check (status in ('reserved', 'consumed', 'released')),
    period_start           timestamptz not null,
    period_end             timestamptz not null,
    consumed_period_start  timestamptz,
    consumed_period_end    timestamptz,
    created_at             timestamptz not null,
    updated_at             timestamptz not null,
    primary key (workspace_id, mode, id),
    check ((status = 'consumed') = (consumed_period_start is not null))
);

-- Live and test accounts connected now, filled from account events (a later issue); used = count.
create table connected_accounts (
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    account_id    text        not null,
    connected_at  timestamptz not null default now(),
    primary key (workspace_id, mode, account_id)
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
