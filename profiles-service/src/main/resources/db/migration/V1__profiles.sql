create table profiles (
    id            text primary key,
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    name          text        not null,
    external_id   text,
    created_at    timestamptz not null,
    updated_at    timestamptz not null
);
-- Lists run newest first within one workspace and mode (keyset pagination on created_at, id).
create index profiles_tenant_recent on profiles (workspace_id, mode, created_at desc, id desc);
create unique index profiles_external_id on profiles (workspace_id, mode, external_id) where external_id is not null;

-- What keeps a profile from being deleted: its accounts, its pending posts, its media. Other services'
-- events add and remove holds (one row per holder, so redelivered events change nothing).
create table profile_holds (
    profile_id    text        not null,
    kind          text        not null check (kind in ('accounts', 'pending_posts', 'media')),
    holder_id     text        not null,
    created_at    timestamptz not null default now(),
    primary key (profile_id, kind, holder_id)
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
