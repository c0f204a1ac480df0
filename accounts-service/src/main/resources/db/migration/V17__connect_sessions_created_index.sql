-- The hourly cap on connect sessions created through the API (ConnectSessionRepository.createdThroughApiSince) counts a
-- workspace's recent ones; reconnect links' sessions (with an account) are not counted.
create index connect_sessions_created_by_tenant on connect_sessions (workspace_id, mode, created_at) where account_id is null;
