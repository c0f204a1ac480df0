-- Post analytics (decisions 151 to 156): the last numbers read from a published target's platform (or computed by
-- the sandbox), answered without calling the platform while fresh. One row per target once it is read or tracked.
create table post_analytics (
    post_id          text        not null,
    account_id       text        not null,
    workspace_id     text        not null,
    mode             text        not null,
    -- The normalized metrics and the platform's own fields of the last successful read (null before one).
    metrics          jsonb,
    raw              jsonb,
    refreshed_at     timestamptz,
    -- Why the last refresh did not read (provider_error, account_disconnected, ...); cleared by a successful read.
    last_error       text,
    -- When the refresher should read it again; a claim moves it forward by the lease. Null: no longer tracked.
    next_refresh_at  timestamptz,
    primary key (post_id, account_id),
    foreign key (post_id, account_id) references post_targets (post_id, account_id)
);
create index post_analytics_due on post_analytics (next_refresh_at) where next_refresh_at is not null;
-- The refresher's seeding looks for recently published targets not tracked yet.
create index post_targets_recently_published on post_targets (completed_at)
    where status = 'published' and provider_post_id is not null;
