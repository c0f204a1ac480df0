-- OAuth 2.0 clients (client_credentials grant). Only the SHA-256 of the secret is kept.
create table oauth_clients (
    id            text primary key,
    workspace_id  text        not null references workspaces (id),
    mode          text        not null check (mode in ('test', 'live')),
    secret_hash   text        not null unique,
    scopes        text        not null,
    name          text,
    created_at    timestamptz not null,
    revoked_at    timestamptz
);
