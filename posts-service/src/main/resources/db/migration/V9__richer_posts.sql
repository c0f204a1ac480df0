-- A post's media as the API echoes it: one {url, type} object, or an array of them in order (a carousel).
alter table posts add column media jsonb;
update posts set media = jsonb_build_object('url', media_url, 'type', media_type) where media_url is not null;
alter table posts drop column media_url, drop column media_type;

-- The post's first comment ({text}); a platform's override lives in platform_options.<platform>.first_comment.
alter table posts add column first_comment jsonb;

-- Each target's first-comment outcome ({status, comment_id, error}); null when the post asked for none on it.
alter table post_targets add column first_comment jsonb;
