#!/usr/bin/env bash
# Contract fuzzing at the issue's bar: system-tests' ContractFuzzIT with 200 generated requests per operation of
# the OpenAPI document (CI runs 15), on a suite it starts itself (free ports, temporary state directory), then the
# per-operation table (requests, valid requests answered 2xx, violations, statuses seen). See bench/README.md.
#
#   bench/fuzz.sh [--no-build] [REQUESTS_PER_OPERATION] [extra Maven arguments, e.g. -o]
#   HERALD_FUZZ_SEED=123 bench/fuzz.sh       # replay a run: its seed is the table's first line
# --no-build uses the services as last packaged (bench/reliability.sh packages once for all its phases).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD=1
if [[ "${1:-}" == --no-build ]]; then
  BUILD=0
  shift
fi
REQUESTS="${1:-200}"
shift || true
REPORT="$ROOT/system-tests/target/contract-fuzz-report.txt"
LOG="$ROOT/system-tests/target/contract-fuzz-maven.log"

cd "$ROOT"
rm -f "$REPORT"
mkdir -p "$(dirname "$LOG")"
status=0
# The suite runs every service's packaged jar, and system-tests does not depend on the services: package them
# first (a fresh checkout has none), then run the test.
: >"$LOG"
[[ "$BUILD" == 0 ]] || nice -n 10 ./mvnw -B -q package -DskipTests "$@" >"$LOG" 2>&1 || status=$?
if [[ $status -eq 0 ]]; then
  nice -n 10 ./mvnw -B verify -pl system-tests -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=ContractFuzzIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dherald.fuzz.requests="$REQUESTS" -Dherald.test.timeout=12h ${HERALD_FUZZ_SEED:+-Dherald.fuzz.seed="$HERALD_FUZZ_SEED"} "$@" >>"$LOG" 2>&1 || status=$?
fi

if [[ -f "$REPORT" ]]; then
  cat "$REPORT"
else
  echo "no report: the run failed before fuzzing; see $LOG" >&2
  tail -40 "$LOG" >&2
fi
[[ $status -eq 0 ]] && echo "contract fuzz: passed" || echo "contract fuzz: FAILED (Maven log: $LOG)"
exit $status
