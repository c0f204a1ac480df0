-- Branding of the hosted connect page (docs/accounts-and-connect.md, "Branding"), one per workspace and mode, set by
-- PUT /branding.
create table connect_brandings (
    workspace_id text not null,
    mode text not null,
    display_name text,
    accent_color text,
    support_url text,
    privacy_url text,
    -- The customer's URL the logo was fetched from, and the fetched image's hash (its row in connect_logos).
    logo_url text,
    logo_sha256 text,
    updated_at timestamptz not null,
    primary key (workspace_id, mode),
    constraint connect_brandings_logo_whole check ((logo_url is null) = (logo_sha256 is null))
);

-- Logos, fetched once when a branding is set (at most 256 KiB, checked by the service) and named by their SHA-256:
-- the page shows them from Herald's own origin, so an end user's browser never calls the customer's host, and a new
-- logo is a new URL, which browsers may cache for good. Apart from the brandings so that a page's read never carries
-- the image; a row no branding names any more is deleted with the change that dropped it.
create table connect_logos (
    sha256 text primary key,
    content_type text not null,
    bytes bytea not null,
    created_at timestamptz not null
);

-- A connect session may name the customer differently from its workspace's branding (a reseller's client, say).
alter table connect_sessions add column display_name text;
