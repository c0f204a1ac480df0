-- Connection health (docs/accounts-and-connect.md, "Connection health"). health_status is what is stored; the API's
-- `expiring` is derived on read from token_expires_at (within 7 days), so no job has to flip it on time.
alter table accounts
    add column health_status     text not null default 'healthy'
        check (health_status in ('healthy', 'reauth_required', 'disconnected')),
    -- The platform's own answer that made the account reauth_required (its error code and message).
    add column health_reason     text,
    -- When Herald's access ends unless renewed (refresh token's end for a renewable grant, else the access token's).
    add column token_expires_at  timestamptz,
    -- The last definitive answer about the grant (a check or a use); null for sandbox accounts never checked.
    add column health_checked_at timestamptz,
    -- When the health job checks this account next; null: never (sandbox accounts, unless steered).
    add column next_check_at     timestamptz,
    -- Temporary failures (5xx, 429, timeouts) since the last definitive answer: they set the backoff, never health.
    add column check_failures    integer not null default 0;

update accounts set health_status = 'disconnected' where status = 'disconnected';
alter table accounts add constraint accounts_health_follows_status
    check ((status = 'disconnected') = (health_status = 'disconnected'));

-- The health job claims due accounts in check order (skip locked, so replicas share the work).
create index accounts_next_check on accounts (next_check_at) where next_check_at is not null;
-- GET /accounts?health=... within one tenant.
create index accounts_tenant_health on accounts (workspace_id, mode, health_status);
