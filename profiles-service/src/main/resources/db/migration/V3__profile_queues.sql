-- A profile's posting queue (PUT /profiles/{id}/queue): its weekly slots in its IANA time zone. One per profile,
-- deleted with the profile. slots is a JSON array of {day, time}, in PostQueue.SLOT_ORDER, with no duplicate.
create table profile_queues (
    profile_id    text        primary key references profiles (id) on delete cascade,
    timezone      text        not null,
    slots         jsonb       not null,
    updated_at    timestamptz not null
);
