-- pgbench script: the SQL one accepted post runs on the acceptance path (POST /posts, one target, test mode),
-- issued directly, statement for statement, grouped into transactions as the services group them. One pgbench
-- transaction = one post. Run by bench/PostsBench.java against a scratch database holding the measured commit's
-- own migrations of api-gateway (schema gw), posts-service (posts) and usage-service (usage), with
-- -D workspaces=<the run's workspace count> and -M prepared (the services use prepared statements too).
--
-- Not here: the reads outside these transactions (API key and entitlements are cached by the gateway;
-- accounts-service's account lookup is a read in another database) and everything after acceptance (dispatch,
-- delivery, settlement, finalization). The gateway writes request logs in batches (one unnest insert per 250 ms);
-- here each post inserts its own row, which is the pessimistic side.
--
-- pgbench replaces :name anywhere in the text, quoted or not, so literals never hold a colon followed by a
-- letter or digit: 'ws_x' || E'\x3a' || 'test' spells "ws_x:test", and JSON strings write ':' as \u003a.

\set w random(1, :workspaces)
\set n random(1, 9223372036854775806)

-- api-gateway, AdmissionStatements.ADMIT_ALL for a batch of one metered request (autocommit): the calendar-minute
-- window and the monthly API-request meter, scale's 300 per minute and test mode's 10,000 per month.
with request as (
    select * from unnest(array['ws_bench_' || :w || E'\x3atest']::text[], array[date_trunc('minute', now())]::timestamptz[],
                         array[date_trunc('month', now())]::timestamptz[], array[1]::integer[], array[1]::integer[],
                         array[300]::integer[], array[10000]::bigint[])
        as r(subject, window_start, period_start, requests, metered, per_minute, monthly_limit)
), window_count as (
    insert into gw.rate_limit_windows as w (subject, window_start, request_count)
    select subject, window_start, requests from request
    on conflict (subject, window_start) do update set request_count = w.request_count + excluded.request_count
    returning subject, request_count
), chargeable as (
    select r.subject, r.period_start, r.monthly_limit,
           greatest(0, least(r.metered, r.per_minute - (w.request_count - r.requests))) as units
    from request r join window_count w on w.subject = r.subject
    where r.metered > 0
), metered as (
    insert into gw.api_request_counts as c (subject, period_start, used, last_grant)
    select subject, period_start, least(units, monthly_limit), least(units, monthly_limit) from chargeable
    on conflict (subject, period_start) do update
        set used = greatest(c.used, least(c.used + excluded.used,
                       (select monthly_limit from request r where r.subject = c.subject))),
            last_grant = greatest(c.used, least(c.used + excluded.used,
                       (select monthly_limit from request r where r.subject = c.subject))) - c.used
    returning subject, used, last_grant
)
select r.subject, w.request_count as window_count, coalesce(m.last_grant, 0) as granted,
       coalesce(m.used, current_count.used, 0) as used_now
from request r
join window_count w on w.subject = r.subject
left join metered m on m.subject = r.subject
left join gw.api_request_counts current_count
       on current_count.subject = r.subject and current_count.period_start = r.period_start;

-- posts-service, IdempotencyKeyStatements.claim (autocommit): one statement, no transaction held open.
insert into posts.idempotency_keys (workspace_id, mode, key, fingerprint, state, claim_token, claimed_at, expires_at)
values ('ws_bench_' || :w, 'test', 'pb-bench-' || :n, '5f0c6ad2b3e1d3a4c2f87e9b0d6a1c3e8f2b4d6a8c0e2f4a6b8d0f2a4c6e8a0b',
        'in_flight', '3f1d7a2e-9c4b-4e8a-b5d6-' || lpad(:n::text, 12, '0'), now(), now() + interval '60 seconds')
on conflict (workspace_id, mode, key) do update
    set fingerprint = excluded.fingerprint, state = 'in_flight', claim_token = excluded.claim_token,
        post_id = null, response = null, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
    where posts.idempotency_keys.expires_at <= excluded.claimed_at
returning fingerprint, state, claim_token, response;

-- usage-service, ReservationBatchService.reserveAllOnce for one publication (one transaction): existing
-- reservations, the subscription, the meter row created if missing and locked, the reservations again under the
-- lock, then Hibernate's flush (reservation insert, meter update) and the usage.reserved outbox row.
begin;
select workspace_id, mode, id, meter, units, status, period_start, period_end, consumed_period_start,
       consumed_period_end, created_at, updated_at
from usage.reservations where workspace_id = 'ws_bench_' || :w and mode = 'test' and id in ('pst_' || :n || '-acc_bench_' || :w);
select workspace_id, mode, plan, plan_source, started_at, grace_ends_at, pending_plan, pending_plan_source,
       pending_effective_at, created_at, updated_at
from usage.subscriptions where workspace_id = 'ws_bench_' || :w and mode = 'test';
insert into usage.usage_meters (workspace_id, mode, meter, period_start, period_end, used, reserved, updated_at)
values ('ws_bench_' || :w, 'test', 'publications', date_trunc('month', now()), date_trunc('month', now()) + interval '1 month',
        0, 0, now())
on conflict do nothing;
select workspace_id, mode, meter, period_start, period_end, used, reserved, updated_at
from usage.usage_meters where workspace_id = 'ws_bench_' || :w and mode = 'test' and meter = 'publications'
    and period_start = date_trunc('month', now())
for update;
select workspace_id, mode, id, meter, units, status, period_start, period_end, consumed_period_start,
       consumed_period_end, created_at, updated_at
from usage.reservations where workspace_id = 'ws_bench_' || :w and mode = 'test' and id in ('pst_' || :n || '-acc_bench_' || :w);
insert into usage.reservations (workspace_id, mode, id, meter, units, status, period_start, period_end,
                                consumed_period_start, consumed_period_end, created_at, updated_at)
values ('ws_bench_' || :w, 'test', 'pst_' || :n || '-acc_bench_' || :w, 'publications', 1, 'reserved',
        date_trunc('month', now()), date_trunc('month', now()) + interval '1 month', null, null, now(), now());
update usage.usage_meters set period_end = date_trunc('month', now()) + interval '1 month', reserved = reserved + 1,
                              updated_at = now(), used = used
where workspace_id = 'ws_bench_' || :w and mode = 'test' and meter = 'publications' and period_start = date_trunc('month', now());
insert into usage.outbox (event_id, topic, message_key, payload)
values ('evt_' || :n, 'usage.reserved', 'ws_bench_' || :w || E'\x3atest', cast(cast(
'{"event_id": "evt_7c1e0a9b3d5f2e4a6c8b0d1f", "type": "usage.reserved", "occurred_at": "2026-11-22T20\u003a05\u003a35.123456Z", "workspace_id": "ws_0f3a5c7e9b1d2f4a6c8e0a2b", "mode": "test", "reservation": {"id": "pst_2b4d6f8a0c1e3a5c7e9b1d3f-acc_9a8b7c6d5e4f3a2b1c0d9e8f", "meter": "publications", "units": 1, "status": "reserved", "period": {"start": "2026-11-01T00\u003a00\u003a00Z", "end": "2026-12-01T00\u003a00\u003a00Z"}, "consumed_period": null, "created_at": "2026-11-22T20\u003a05\u003a35.123456Z", "updated_at": "2026-11-22T20\u003a05\u003a35.123456Z"}}'
as text) as jsonb));
commit;

-- posts-service, PostService.persist (one transaction): the post, its target and the key's stored answer (the
-- 202's body, byte for byte).
begin;
insert into posts.posts (id, workspace_id, mode, text, media, scheduled_at, due_at, platform_options, status,
                         created_at, updated_at, dispatched_at, finalized_at)
values ('pst_' || :n, 'ws_bench_' || :w, 'test',
        'Posts pipeline benchmark run, post number in the run: one LinkedIn sandbox target in test mode.', null, null,
        now(), '{}', 'queued', now(), now(), null, null);
insert into posts.post_targets (post_id, position, account_id, platform, profile_id, account_username, reservation_id,
                                status, attempts, provider_post_id, url, error, completed_at, updated_at)
values ('pst_' || :n, 0, 'acc_bench_' || :w, 'linkedin', null, 'bench', 'pst_' || :n || '-acc_bench_' || :w, 'queued', 0,
        null, null, null, null, now());
update posts.idempotency_keys set state = 'completed', post_id = 'pst_' || :n,
    response = '{"data": {"id": "pst_2b4d6f8a0c1e3a5c7e9b1d3f","text": "Posts pipeline benchmark run, post number in the run: one LinkedIn sandbox target in test mode.","status": "queued","mode": "test","media": null,"scheduled_at": null,"platform_options": {},"targets": [{"account_id": "acc_9a8b7c6d5e4f3a2b1c0d9e8f","platform": "linkedin","status": "queued","attempts": 0,"profile_id": null,"completed_at": null}],"created_at": "2026-11-22T20\u003a05\u003a35.123Z","updated_at": "2026-11-22T20\u003a05\u003a35.123Z"}}',
    expires_at = now() + interval '24 hours'
where workspace_id = 'ws_bench_' || :w and mode = 'test' and key = 'pb-bench-' || :n
    and claim_token = '3f1d7a2e-9c4b-4e8a-b5d6-' || lpad(:n::text, 12, '0') and state = 'in_flight';
commit;

-- api-gateway, RequestLogStatements.insertAll for one row (autocommit; the gateway batches these).
insert into gw.request_logs (id, workspace_id, mode, key_id, method, path, status, duration_ms, created_at)
select * from unnest(array['req_' || :n]::text[], array['ws_bench_' || :w]::text[], array['test']::text[],
                     array['key_bench_' || :w]::text[], array['POST']::text[], array['/posts']::text[],
                     array[202]::integer[], array[4]::integer[], array[now()]::timestamptz[])
on conflict (id) do nothing;
