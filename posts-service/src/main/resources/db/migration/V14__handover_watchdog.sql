-- HandoverWatchdog hands a post over to delivery once more when none of its publishing targets was heard of long after
-- its handover (a post.accepted that never reached the worker); handover_repeated_at says it did, so it does so once.
alter table posts add column handover_repeated_at timestamptz;
-- The watchdog's and the unfinished-target gauge's question: publishing posts by due time (queued ones: posts_due).
create index posts_publishing_due on posts (due_at) where status = 'publishing';
