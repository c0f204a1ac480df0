-- The queue slots next_slot posts hold (POST /posts with "scheduled_at": "next_slot"): one post per slot and profile,
-- which the unique key enforces however many requests race for a slot. A row is claimed while the post is accepted
-- (after its unfinished-acceptance row, so an abandoned acceptance frees it), committed with the post, and deleted
-- when the post is canceled or its acceptance given back. Rows of slots in the past hold nothing any more.
create table post_slots (
    post_id       text        primary key,
    workspace_id  text        not null,
    mode          text        not null,
    profile_id    text        not null,
    slot_at       timestamptz not null,
    claimed_at    timestamptz not null,
    constraint post_slots_one_post_per_slot unique (workspace_id, mode, profile_id, slot_at)
);
