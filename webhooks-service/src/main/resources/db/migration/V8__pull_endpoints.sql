-- Pull endpoints (./herald listen, docs/webhooks.md "Pull endpoints"): no URL; their deliveries are not sent but read
-- through GET /webhooks/{id}/events. A push endpoint keeps its URL; only a pull endpoint has none.
alter table endpoints add column kind text not null default 'push' check (kind in ('push', 'pull'));
alter table endpoints alter column url drop not null;
alter table endpoints add constraint endpoints_url_of_push_only check ((kind = 'push') = (url is not null));
