-- Account analytics (decisions 151 to 156): the last numbers read from a connected account's platform (or computed by
-- the sandbox), answered without calling the platform while fresh. Deleted with the account's other provider answers
-- when it is disconnected (decision 38).
create table account_analytics (
    account_id       text        primary key references accounts (id),
    workspace_id     text        not null,
    mode             text        not null,
    -- The normalized metrics and the platform's own fields of the last successful read (null before one).
    metrics          jsonb,
    raw              jsonb,
    refreshed_at     timestamptz,
    -- Why the last refresh did not read (analytics_consent_required, provider_error, ...); cleared by a read.
    last_error       text,
    -- When the refresher should read it again; a claim moves it forward by the lease.
    next_refresh_at  timestamptz not null
);
create index account_analytics_due on account_analytics (next_refresh_at);
