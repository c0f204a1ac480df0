-- A delivery's media: the post's items in order, as a JSON array of {url, type} (one item for a single medium; empty
-- for a text post), so a carousel's items travel with each of its targets.
alter table deliveries add column media jsonb not null default '[]';
update deliveries set media = jsonb_build_array(jsonb_build_object('url', media_url, 'type', media_type))
    where media_url is not null;
alter table deliveries drop column media_url, drop column media_type;
