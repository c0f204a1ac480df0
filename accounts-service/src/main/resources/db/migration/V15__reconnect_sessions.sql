-- Reconnect sessions (docs/accounts-and-connect.md, "Connection health"): a reconnect link opens a connect session
-- bound to one account, which reconnects exactly that account (the same id). profile_id becomes nullable: an
-- unassigned account is reconnected too, and a reconnection keeps the account's own profile whatever the session
-- says, so such a session has no profile to name. A session without an account still needs its profile.
alter table connect_sessions
    add column account_id text,
    alter column profile_id drop not null,
    add constraint connect_sessions_profile_or_account check (profile_id is not null or account_id is not null);
