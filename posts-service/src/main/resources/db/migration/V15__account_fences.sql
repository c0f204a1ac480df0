-- Decision 224: PATCH /accounts/{id} fences the account here while it moves it to another profile, so that no post that
-- looked the account up before the move commits after the move's pending-posts check. A fence is in force from its
-- insert until in_force_until: its expiry (set at insert, in case accounts-service dies before lifting it) or the
-- time it was lifted (accounts-service lifts it once its write committed or failed). Rows stay an hour past that so
-- an acceptance that began before the lift still sees it; AccountFenceStatements.FENCE deletes older ones.
create table account_fences (
    id              text        primary key,
    workspace_id    text        not null,
    mode            text        not null,
    account_id      text        not null,
    created_at      timestamptz not null,
    expires_at      timestamptz not null,
    lifted_at       timestamptz,
    in_force_until  timestamptz not null
);
-- The acceptance's question (index only: is a fence of these accounts in force since the request began?).
create index account_fences_in_force on account_fences (account_id, in_force_until);
create index account_fences_retention on account_fences (in_force_until);

-- The acceptance statement's fence check (AcceptanceStatements.COMMIT). It takes the shared per-account advisory
-- lock (the fence takes it exclusively while it records itself and counts pending posts), then looks for fences.
-- It is a function because the look must be a second query: a VOLATILE function's queries each take a fresh
-- snapshot, so a fence that committed while this waited for the lock is seen; the calling statement's own snapshot,
-- taken before the wait, would miss it.
create function account_fenced(account_ids text[], since timestamptz) returns boolean
    language plpgsql volatile as $$
begin
    perform pg_advisory_xact_lock_shared(hashtextextended(account, 0)) from unnest(account_ids) as account;
    return exists (select 1 from account_fences where account_id = any(account_ids) and in_force_until > since);
end
$$;
