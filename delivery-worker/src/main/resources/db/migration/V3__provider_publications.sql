-- A live publisher's memory of each target's calls to its platform, one row per idempotency token, for platforms
-- that take no idempotency key (LinkedIn). 'calling' is written before a call and stays when its outcome is
-- unknown (timeout, broken connection, crash); 'refused' after an answer that created nothing, so the next
-- attempt may call again; 'published' with the platform's post id, answered to every later attempt.
create table provider_publications (
    token             text        primary key,
    platform          text        not null,
    state             text        not null check (state in ('calling', 'refused', 'published')),
    provider_post_id  text,
    url               text,
    calls             integer     not null,
    created_at        timestamptz not null,
    updated_at        timestamptz not null
);
