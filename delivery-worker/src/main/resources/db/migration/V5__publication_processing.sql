-- A publication the platform is still processing (an Instagram Reels container): the create call answered with a
-- reference to ask about (provider_ref), and later attempts check that reference instead of calling create or
-- looking for the post again (decision 127). checks counts those checks; processing_started_at bounds them.
alter table provider_publications drop constraint provider_publications_state_check;
alter table provider_publications
    add constraint provider_publications_state_check check (state in ('calling', 'refused', 'processing', 'published')),
    add column provider_ref          text,
    add column processing_started_at timestamptz,
    add column checks                integer not null default 0,
    add constraint provider_publications_processing_ref
        check (state <> 'processing' or (provider_ref is not null and processing_started_at is not null));
