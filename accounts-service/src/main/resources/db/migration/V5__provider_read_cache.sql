-- Provider answers kept for a short while (publishing options, board and section pages), so repeated reads
-- do not call the provider again and are not metered. Purged with the account's provider data.
create table provider_read_cache (
    account_id   text        not null references accounts (id),
    read_key     text        not null,
    payload      jsonb       not null,
    fetched_at   timestamptz not null,
    primary key (account_id, read_key)
);
