-- A check of a live account ahead of each of its scheduled posts (HealthCheckPolicy.beforeDue): one row per post's
-- check time, so an account with posts at 10:00 and 14:00 is checked before each. The health job claims the due ones
-- together with the accounts' regular checks (AccountHealthStatements) and deletes them.
create table account_due_checks (
    account_id text        not null references accounts (id) on delete cascade,
    check_at   timestamptz not null,
    primary key (account_id, check_at)
);

create index account_due_checks_due on account_due_checks (check_at);
