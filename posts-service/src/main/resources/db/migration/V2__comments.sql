-- Comments on published posts and the replies posted through Herald. Test mode's simulated comments are
-- written when a test target is published, so reads and replies behave like a platform's.
create table comments (
    id               text        primary key,
    workspace_id     text        not null,
    mode             text        not null,
    account_id       text        not null,
    post_id          text,
    platform         text        not null,
    parent_id        text        references comments (id),
    text             text        not null,
    author_name      text        not null,
    author_username  text        not null,
    from_account     boolean     not null,
    created_at       timestamptz not null
);
create index comments_by_post on comments (workspace_id, mode, post_id, created_at desc, id desc);
create index comments_by_account on comments (workspace_id, mode, account_id, created_at desc, id desc);
