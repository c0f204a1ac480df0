-- Provider revocations still to be done (YouTube disconnects), retried with backoff. The grant is kept
-- only encrypted and only until the revocation succeeds, the attempts run out or expires_at passes;
-- then the row (and the credential in it) is deleted.
create table provider_revocations (
    id               bigserial   primary key,
    account_id       text        not null references accounts (id),
    workspace_id     text        not null,
    mode             text        not null check (mode in ('test', 'live')),
    platform         text        not null,
    ciphertext       bytea       not null,
    attempts         int         not null default 0,
    next_attempt_at  timestamptz not null,
    expires_at       timestamptz not null,
    last_error       text,
    created_at       timestamptz not null
);
create index provider_revocations_due on provider_revocations (next_attempt_at);
create index provider_revocations_account on provider_revocations (account_id);
