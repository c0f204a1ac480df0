-- The W3C traceparent of the request that accepted the post (null when it was not traced). The dispatcher writes
-- post.accepted later, outside that request (at once, or at scheduled_at), and gives the event this trace.
alter table posts add column trace_parent text;
