-- The W3C traceparent of the request or message that wrote the event (null when none was traced). The outbox relay
-- sends it as the record's traceparent header, so the consumer continues the same trace. Nullable and without a
-- default, so the release before this one keeps writing rows it does not know about (decision 78).
alter table outbox add column trace_parent text;
