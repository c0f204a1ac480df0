-- post.finalized events already applied (recorded in the same transaction as the events and deliveries they
-- made, so a redelivered event changes nothing).
create table processed_events (
    event_id      text        primary key,
    processed_at  timestamptz not null
);

-- Webhook endpoints. A disabled endpoint stays (its deliveries refer to it) and receives nothing new.
--   disabled_reason: 'requested' (DELETE /webhooks/{id}) or 'endpoint_gone' (the receiver answered 410 Gone)
create table endpoints (
    id               text        primary key,
    workspace_id     text        not null,
    mode             text        not null check (mode in ('test', 'live')),
    url              text        not null,
    description      text,
    events           text[]      not null,
    status           text        not null check (status in ('enabled', 'disabled')),
    disabled_reason  text        check (disabled_reason in ('requested', 'endpoint_gone')),
    created_at       timestamptz not null,
    updated_at       timestamptz not null,
    disabled_at      timestamptz,
    check ((status = 'disabled') = (disabled_at is not null and disabled_reason is not null))
);
create index endpoints_list on endpoints (workspace_id, mode, created_at desc, id desc);
create index endpoints_enabled on endpoints (workspace_id, mode) where status = 'enabled';

-- Signing secrets, sealed with common's SecretCipher (AES-256-GCM, bound to the endpoint id): they sign, so
-- they cannot be hashed. expires_at is null for the current secret; a rotated-out secret keeps signing beside
-- the new one until expires_at.
create table endpoint_secrets (
    id           bigserial   primary key,
    endpoint_id  text        not null references endpoints (id),
    sealed       text        not null,
    created_at   timestamptz not null,
    expires_at   timestamptz
);
create index endpoint_secrets_of_endpoint on endpoint_secrets (endpoint_id);
create unique index endpoint_secrets_current on endpoint_secrets (endpoint_id) where expires_at is null;

-- Webhook events: the exact JSON body every attempt of every delivery sends (so retries are byte-identical).
-- source_event_id is the post.finalized event the webhook event came from (null for webhook.test).
create table events (
    id               text        primary key,
    workspace_id     text        not null,
    mode             text        not null check (mode in ('test', 'live')),
    type             text        not null,
    source_event_id  text        unique,
    payload          text        not null,
    created_at       timestamptz not null
);

-- One delivery per event and endpoint.
--   pending    due at due_at: next_attempt_at when waiting; while an attempt runs it is leased (lease_token,
--              lease_until) and due_at is the lease's end, so a sender that died is taken over after it
--   succeeded  the receiver answered 2xx (delivered_at)
--   failed     out of attempts, the receiver answered 410, or the endpoint was disabled
-- final_attempt: a manual retry gets one attempt, not a new schedule.
create table deliveries (
    id                    text        primary key,
    event_id              text        not null references events (id),
    event_type            text        not null,
    endpoint_id           text        not null references endpoints (id),
    workspace_id          text        not null,
    mode                  text        not null check (mode in ('test', 'live')),
    status                text        not null check (status in ('pending', 'succeeded', 'failed')),
    attempts              integer     not null default 0,
    final_attempt         boolean     not null default false,
    next_attempt_at       timestamptz,
    due_at                timestamptz,
    lease_token           uuid,
    lease_until           timestamptz,
    last_response_status  integer,
    last_error            text,
    -- At most 1 KiB of what the receiver answered: never more is stored.
    last_response_body    text        check (octet_length(last_response_body) <= 1024),
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    delivered_at          timestamptz,
    unique (event_id, endpoint_id),
    check ((status = 'pending') = (due_at is not null and next_attempt_at is not null)),
    check ((lease_token is null) = (lease_until is null)),
    check (lease_token is null or status = 'pending'),
    check ((status = 'succeeded') = (delivered_at is not null))
);
-- The sender's two questions: which deliveries are due (waiting or with a lapsed lease), and how many attempts
-- each endpoint has in flight.
create index deliveries_due on deliveries (due_at) where status = 'pending';
create index deliveries_leased on deliveries (endpoint_id) where lease_token is not null;
create index deliveries_list on deliveries (workspace_id, mode, created_at desc, id desc);
create index deliveries_of_endpoint on deliveries (endpoint_id, created_at desc, id desc);
create index deliveries_of_event on deliveries (event_id);
