-- An uncertain delivery (its last call's outcome unknown, no attempt left) is settled by the reconciler, which
-- asks the platform what that call did. reconcile_at is when it looks next (null once settled or for any other
-- status); reconcile_token names the reconciler holding a look, so a slow one whose claim lapsed writes nothing;
-- reconcile_checks counts the looks, for their backoff.
alter table deliveries
    add column reconcile_at     timestamptz,
    add column reconcile_token  uuid,
    add column reconcile_checks integer not null default 0;

-- Rows left uncertain before this migration are looked at right away.
update deliveries set reconcile_at = coalesce(completed_at, updated_at) where status = 'uncertain';

create index deliveries_uncertain_due on deliveries (reconcile_at) where status = 'uncertain';
