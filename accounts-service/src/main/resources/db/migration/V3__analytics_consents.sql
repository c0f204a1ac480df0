-- YouTube analytics-consent receipts: one per account and authorization revision, timestamped by the
-- server. A new authorization needs a new receipt; old receipts stay as the record of what was accepted.
create table analytics_consents (
    account_id              text        not null references accounts (id),
    authorization_revision  bigint      not null,
    policy_version          text        not null,
    accepted_at             timestamptz not null,
    primary key (account_id, authorization_revision)
);
