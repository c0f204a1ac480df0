-- The monthly API-request meter, counted at the edge: one atomic increment per metered request, in the
-- same statement as the rate-limit window, and only while under the allowance. subject is
-- "<workspace>:<mode>"; period_start comes from usage-service (the subscription's current period).
create table api_request_counts (
    subject       text        not null,
    period_start  timestamptz not null,
    used          bigint      not null,
    primary key (subject, period_start)
);
