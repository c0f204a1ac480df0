-- Social accounts of one workspace and mode. A provider identity (platform + external_id) is one account
-- per workspace and mode: reconnecting it finds the same row, so history and ids survive reconnection.
create table accounts (
    id                      text        primary key,
    workspace_id            text        not null,
    mode                    text        not null check (mode in ('test', 'live')),
    platform                text        not null check (platform in ('tiktok', 'instagram', 'facebook', 'youtube', 'pinterest', 'linkedin')),
    external_id             text        not null,
    profile_id              text,
    name                    text        not null,
    username                text        not null,
    status                  text        not null check (status in ('connected', 'disconnected')),
    -- Bumped by every authorization (connect, reconnect, re-authorize); consent receipts bind to it.
    authorization_revision  bigint      not null default 1,
    -- The YouTube analytics-consent receipt of the current revision (history in analytics_consents).
    consent_policy_version  text,
    consent_accepted_at     timestamptz,
    connect_session_id      text,
    connected_at            timestamptz not null,
    disconnected_at         timestamptz,
    created_at              timestamptz not null,
    updated_at              timestamptz not null,
    check ((status = 'disconnected') = (disconnected_at is not null))
);
create unique index accounts_identity on accounts (workspace_id, mode, platform, external_id);
-- Lists run newest first within one workspace and mode (keyset pagination on created_at, id).
create index accounts_tenant_recent on accounts (workspace_id, mode, created_at desc, id desc);

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
