-- Recurring posts (issue 38): a post created with repeat starts a series, and Herald creates its copies one at a
-- time, each a post of its own accepted as POST /posts accepts one (SeriesCopyJob). The series row is written by
-- the statement that commits its first post.
create table post_series (
    id            text        primary key,
    workspace_id  text        not null,
    mode          text        not null,
    -- The POST /posts body each copy is accepted from: the first post's, without scheduled_at and repeat.
    body          jsonb       not null,
    -- The rule as given (PostSeries.Repeat): an ISO 8601 period, until or count, an IANA zone.
    every         text        not null,
    until_at      timestamptz,
    count         integer,
    timezone      text        not null,
    -- The first post's time (its scheduled time, or its acceptance): occurrence n falls n periods after it, in
    -- the zone's local time.
    first_at      timestamptz not null,
    -- The next occurrence to create (the first post is 0) and its time; next_at is null once none remains.
    next_index    integer     not null,
    next_at       timestamptz,
    -- When the job creates the next copy: when the post before it falls due. A claim moves it a lease ahead, so a
    -- replica that dies mid-copy leaves the series due again (the copy's idempotency key makes the retry a replay).
    create_at     timestamptz,
    -- The posts created, in order; an occurrence that was refused has none.
    post_ids      text[]      not null,
    -- active, completed or canceled.
    status        text        not null,
    -- Why the latest copy could not be created (an ApiError); null once one is.
    last_error    jsonb,
    created_at    timestamptz not null,
    updated_at    timestamptz not null
);
create index post_series_due on post_series (create_at) where status = 'active';

alter table posts add column series_id text;
create index posts_series on posts (series_id) where series_id is not null;
