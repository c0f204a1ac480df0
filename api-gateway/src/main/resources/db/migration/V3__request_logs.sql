-- One row per API request made with a valid credential. Never the Authorization header, never a body,
-- never the query string: nothing secret is stored.
create table request_logs (
    id            text        primary key,
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    key_id        text        not null,
    method        text        not null,
    path          text        not null,
    status        integer     not null,
    duration_ms   integer     not null,
    created_at    timestamptz not null
);
create index request_logs_tenant_recent on request_logs (workspace_id, mode, created_at desc, id desc);
