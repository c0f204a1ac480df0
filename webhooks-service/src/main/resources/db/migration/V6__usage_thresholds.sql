-- The allowance thresholds (80 and 100 percent) each meter reached in each period: the primary key makes the
-- usage.threshold_reached event once only per workspace, mode, meter, period and threshold, with replicas and
-- redeliveries. event_id is the webhook event it made. Rows go once their period has ended (WebhookRetention).
create table usage_thresholds (
    workspace_id  text        not null,
    mode          text        not null check (mode in ('test', 'live')),
    meter         text        not null,
    period_start  timestamptz not null,
    period_end    timestamptz not null,
    threshold     integer     not null check (threshold in (80, 100)),
    event_id      text        not null,
    reached_at    timestamptz not null,
    primary key (workspace_id, mode, meter, period_start, threshold)
);
create index usage_thresholds_period_end on usage_thresholds (period_end);
