-- A live account's provider grant (tokens), encrypted by the credential cipher; never stored in clear.
-- Deleted when the account disconnects.
create table provider_credentials (
    account_id   text        primary key references accounts (id),
    ciphertext   bytea       not null,
    updated_at   timestamptz not null
);
