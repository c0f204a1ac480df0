-- A delivery the watchdog (StuckDeliveryWatchdog) took over because it was overdue: when it did. Such a delivery is
-- never claimed by the claim loop again, so it is never attempted late, even if the watchdog dies while settling it:
-- its lease then lapses and the watchdog's next look takes it again.
alter table deliveries add column overdue_at timestamptz;
