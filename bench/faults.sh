#!/usr/bin/env bash
# The long fault run of issue 9: CrashRecoveryIT with every component crashed (the Kafka broker, PostgreSQL, the
# gateway and all six services), each killed with SIGKILL under a steady load of posts and webhooks and started again
# by the suite's supervisor, the whole sequence repeated --rounds times; then RollingRestartIT with every service
# restarted (SIGTERM). PostgreSQL runs with the production durability settings, fsync and synchronous_commit on
# (-Dherald.postgres.durable=true; CI's short run keeps fsync off), and the test checks them on the server. The delivery
# watchdog waits 10 minutes past a post's due time, as in production, rather than CI's 90 s: the long run's outages add
# up (a broker, then PostgreSQL, then delivery-worker) and a busy machine stretches each. CI runs one
# round of the crashes, and restarts only the gateway and delivery-worker. The test output ends with the figures:
# posts accepted, each published once, sandbox publish calls, webhook requests, meters, client retries by cause,
# targets attempted again.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS=3
BUILD=1
DURABLE=true
LOG="${TMPDIR:-/tmp}/herald-faults.log"

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --no-durable) DURABLE=false; shift ;;
    --log) LOG="$2"; shift 2 ;;
    -h|--help)
      cat <<'USAGE'
Usage: bench/faults.sh [--rounds N] [--no-build] [--no-durable] [--log FILE]
  --rounds N     crash rounds (default 3); builds everything, then runs the fault tests
  --no-build     use the services as last packaged (bench/reliability.sh packages once for all its phases)
  --no-durable   PostgreSQL with fsync off, as CI runs it (to compare with runs before fsync was on)
  --log FILE     the Maven output (default ${TMPDIR:-/tmp}/herald-faults.log)
USAGE
      exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds is a whole number of at least 1" >&2; exit 2; }

cd "$ROOT"
[[ "$BUILD" == 0 ]] || ./mvnw -B -q package -DskipTests
./mvnw -B verify -pl system-tests -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test='CrashRecoveryIT,RollingRestartIT' -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dherald.faults=all -Dherald.faults.rounds="$ROUNDS" -Dherald.postgres.durable="$DURABLE" -Dherald.watchdog.grace=PT10M \
  -Dherald.test.timeout=12h 2>&1 \
  | tee "$LOG" | grep -E 'crashes of|rolling restart of|Tests run:|FAIL|BUILD'
