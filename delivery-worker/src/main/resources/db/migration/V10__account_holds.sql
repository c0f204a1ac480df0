-- Accounts whose targets are held (issue 32): filled from account.events by AccountEventConsumer. An account is here
-- from its account.reauth_required until its account.reconnected (or account.connected, or account.disconnected:
-- a disconnected account's targets fail through the reservation check as before, so it holds nothing).
create table held_accounts (
    account_id     text        primary key,
    workspace_id   text        not null,
    mode           text        not null check (mode in ('test', 'live')),
    -- The link that reconnects the account, passed on in the account_reauth_required error at the deadline.
    reconnect_url  text,
    since          timestamptz not null
);

-- When the target fell due (the post's scheduled_at, or its acceptance for an immediate post): a hold ends at
-- due_at + herald.delivery.reauth-hold. Rows from before this migration were due when they were created; the default
-- serves a worker of the previous version still inserting during a rolling upgrade (its targets are due at once).
alter table deliveries add column due_at timestamptz;
update deliveries set due_at = created_at;
alter table deliveries alter column due_at set not null;
alter table deliveries alter column due_at set default now();

-- Since when a pending delivery waits for its account to be reconnected (null when it does not): a reconnection
-- makes exactly these due at once.
alter table deliveries add column held_since timestamptz;
create index deliveries_held on deliveries (account_id) where held_since is not null;
