-- POST /posts reserves publications in usage-service and holds profiles in profiles-service before the post
-- commits here. A row is written (on its own) just before those calls and removed in the transaction that
-- commits the post, or once a refused request gave everything back. A row left behind is a request whose process
-- died in between (or whose give-back failed): AbandonedAcceptanceJob gives its reservations and holds back.
create table unfinished_acceptances (
    post_id          text        primary key,
    workspace_id     text        not null,
    mode             text        not null,
    idempotency_key  text        not null,
    claim_token      text        not null,
    reservation_ids  text[]      not null,
    profile_ids      text[]      not null,
    started_at       timestamptz not null,
    abandoned        boolean     not null default false
);
create index unfinished_acceptances_started on unfinished_acceptances (started_at);
