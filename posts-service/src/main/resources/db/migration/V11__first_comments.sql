-- First comments still to post (issue 33). A live target that published with its first comment pending is claimed
-- by FirstCommentJob once first_comment_due_at has come (null: at once); a claim moves it a lease ahead, so a
-- replica that dies mid-call leaves it due again; a temporary failure moves it to the next try.
alter table post_targets add column first_comment_due_at timestamptz;
-- The tries made so far (the backoff's n).
alter table post_targets add column first_comment_attempts int not null default 0;

-- The job's claim: only published targets whose first comment is pending, so the index stays small.
create index post_targets_first_comment_pending on post_targets (first_comment_due_at nulls first)
    where status = 'published' and first_comment ->> 'status' = 'pending';
