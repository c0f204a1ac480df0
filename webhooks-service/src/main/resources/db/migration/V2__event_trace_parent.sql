-- The W3C traceparent of the post.finalized record (or the test-event request) an event came from, null when it
-- carried none: each attempt at it is a span of that trace. Nullable and without a default (decision 78).
alter table events add column trace_parent text;
