-- deliveries_of_event (event_id) duplicated the leading column of the unique (event_id, endpoint_id) index, which
-- serves the same lookups; every delivery written paid for both.
drop index deliveries_of_event;
