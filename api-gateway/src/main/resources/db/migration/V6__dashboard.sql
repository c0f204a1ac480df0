-- The dashboard's people: who may sign in to a workspace's pages, and with which role. A member is named by the
-- email address an identity provider vouches for, by the provider's subject, or by both (the subject is recorded at
-- the first sign-in by email, so a later change of address at the provider does not lock the member out).
create table dashboard_members (
    id            text        primary key,
    workspace_id  text        not null references workspaces (id),
    email         text,
    subject       text,
    role          text        not null check (role in ('owner', 'developer', 'viewer')),
    created_at    timestamptz not null,
    check (email is not null or subject is not null),
    check (email = lower(email))
);
create unique index dashboard_members_email on dashboard_members (workspace_id, email);
create unique index dashboard_members_subject on dashboard_members (workspace_id, subject);
create index dashboard_members_by_email on dashboard_members (email);
create index dashboard_members_by_subject on dashboard_members (subject);

-- Signed-in browsers. The cookie holds a random token; only its SHA-256 is kept, so a copy of this table opens no
-- session. A session is an identity (subject and/or email), not a workspace: what it may see is decided per request
-- from dashboard_members, so removing a member takes effect at once.
create table dashboard_sessions (
    token_hash  text        primary key,
    subject     text,
    email       text,
    created_at  timestamptz not null,
    expires_at  timestamptz not null
);
create index dashboard_sessions_expiry on dashboard_sessions (expires_at);

-- One-time sign-in links for a member (the admin API's, and the one ./herald up prints): SHA-256 of the token.
create table dashboard_sign_in_links (
    token_hash  text        primary key,
    member_id   text        not null references dashboard_members (id) on delete cascade,
    created_at  timestamptz not null,
    expires_at  timestamptz not null,
    used_at     timestamptz
);
