create table workspaces (
    id          text primary key,
    name        text        not null,
    created_at  timestamptz not null
);

create table api_keys (
    id            text primary key,
    workspace_id  text        not null references workspaces (id),
    mode          text        not null check (mode in ('test', 'live')),
    -- SHA-256 of the whole key, hex. The key itself is shown once at creation and never stored.
    secret_hash   text        not null unique,
    secret_last4  text        not null,
    scopes        text        not null,
    name          text,
    -- Keys the launcher seeds from HERALD_DEMO_*_KEY; replaced when those values change.
    demo          boolean     not null default false,
    created_at    timestamptz not null,
    revoked_at    timestamptz
);
create index api_keys_workspace on api_keys (workspace_id, mode);

-- Fixed one-minute windows shared by every gateway replica. subject is "<workspace>:<mode>" for keys,
-- "ip:<address>" for requests without a valid credential.
create table rate_limit_windows (
    subject        text        not null,
    window_start   timestamptz not null,
    request_count  integer     not null,
    primary key (subject, window_start)
);
