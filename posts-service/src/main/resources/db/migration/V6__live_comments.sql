-- Live comments are read from the platforms and kept here (decision 136). A platform comment has one row per
-- account: its id is derived from (account, provider comment id), so every read of it finds the same row.
alter table comments add column provider_comment_id text;
create unique index comments_by_provider_id on comments (account_id, provider_comment_id)
    where provider_comment_id is not null;

-- When a live target's comments were last read from its platform: a read within the freshness window answers
-- the stored copy without calling the platform.
alter table post_targets add column comments_read_at timestamptz;

-- An account's latest published targets, for GET /comments?account_id=.
create index post_targets_published on post_targets (account_id, completed_at desc)
    where status = 'published' and provider_post_id is not null;
