-- The W3C traceparent of the post.accepted record a delivery came from (null when it carried none): every attempt,
-- retries by any worker included, continues that trace, and its target.completed carries it on (outbox below).
-- Nullable and without a default, so the release before this one keeps working against it (decision 78).
alter table deliveries add column trace_parent text;
alter table outbox add column trace_parent text;
