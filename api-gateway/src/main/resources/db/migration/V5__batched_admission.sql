-- Admission counts many requests in one statement (AdmissionBatcher). The statement must tell each request
-- whether the meter granted it a unit, so it needs the meter's value before its increment; RETURNING only
-- sees the new row before PostgreSQL 18, so the increment records what it granted beside the total.
alter table api_request_counts add column last_grant bigint not null default 0;

-- Rate windows live one minute and are rewritten on every request: not worth a WAL record each. After a
-- PostgreSQL crash (or on a fresh standby) the table starts empty, which forgives at most the current
-- minute's requests; the monthly meter above stays logged.
alter table rate_limit_windows set unlogged;
