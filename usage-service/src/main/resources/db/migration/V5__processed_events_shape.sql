-- processed_events takes the shape it has in every service (common's ProcessedEvents): event_id and processed_at.
-- The topic column was written and never read; the recorded ids and their times stay, so retention and
-- redelivery checks go on as before.
alter table processed_events drop column topic;
