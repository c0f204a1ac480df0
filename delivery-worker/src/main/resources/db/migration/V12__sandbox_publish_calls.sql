-- Every publish call the sandbox provider received, one row each. sandbox_publications answers a repeated call
-- with the post the token already has, as an idempotency key makes a provider do, so it alone cannot show a target
-- published twice; this record can: a second call answered with a post is a second publication on a platform that
-- takes no idempotency key. call_number is the token's publish_calls after this call (1, 2, ...), numbered under the
-- token row's lock, so concurrent calls never share one. The rows go with their token's (retention).
create table sandbox_publish_calls (
    token             text        not null references sandbox_publications (token) on delete cascade,
    call_number       integer     not null,
    attempt           integer     not null,
    called_at         timestamptz not null,
    provider_post_id  text,
    primary key (token, call_number)
);
