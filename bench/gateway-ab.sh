#!/usr/bin/env bash
# Two builds of api-gateway side by side on one suite: the same load through each in turn (ABBA slices), and each
# gateway JVM's CPU per request from /proc. Between two runs of gateway-overhead.sh the host's own speed moves by
# 10-15%, more than most gateway changes; here both builds share every minute of the host. See bench/README.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"

usage() {
  cat <<'EOF'
Usage: bench/gateway-ab.sh --base REF [options]

  --base REF         the build to compare against (required), e.g. HEAD~1
  --ref REF          the build under test (default HEAD); the suite runs this one, the base's api-gateway runs
                     beside it on the same database, Kafka and services (both as ./herald runs a service)
  --rounds N         ABBA rounds (default 6): each round measures both builds once, in alternating order
  --slice S          seconds per measured slice (default 20)
  --warmup S         seconds of load on each build before measuring, in 10 s turns (default 120)
  --connections N    keep-alive connections of the load, wrk's -c (default 8)
  --out FILE         results file (default bench/results/<UTC date-time>-gateway-ab.md); --no-results writes none
  --keep-state       keep the suite's temporary state directory (logs) after the run
  -h, --help

The load is `GET /api/v1/profiles/{id}` with a test key on a workspace whose per-minute limit is lifted
(HERALD_USAGE_PLAN_OVERRIDES, as gateway-overhead.sh does), sent by wrk (Debian's package wrk). Builds are made as
gateway-overhead.sh makes them ($BENCH_CACHE, default ~/.cache/herald-bench). Ports as gateway-overhead.sh's, and
the base gateway on $BENCH_AB_PORT (18090) with its management interface on $BENCH_AB_MANAGEMENT_PORT (19010).
EOF
}

BASE=""
REF=HEAD
ROUNDS=6
SLICE=20
WARMUP=120
CONNECTIONS=8
OUT=""
NO_RESULTS=0
KEEP_STATE=0
WORKTREE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --base) BASE="$2"; shift 2 ;;
    --ref) REF="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --slice) SLICE="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n "$BASE" ]] || { echo "--base REF is required (see --help)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 2; }

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
AB_PORT="${BENCH_AB_PORT:-18090}"
AB_MANAGEMENT_PORT="${BENCH_AB_MANAGEMENT_PORT:-19010}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_require_java
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$AB_PORT" "$AB_MANAGEMENT_PORT"

# ---- both builds (the base first: the suite runs the other one, whose SRC stays set)
UNDER_TEST="$REF"
REF="$BASE"
bench_prepare_source
BASE_SRC="$SRC"
BASE_SOURCE="$SOURCE"
REF="$UNDER_TEST"
bench_prepare_source

bench_make_state
bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
suite_env+=(HERALD_USAGE_PLAN_OVERRIDES="scale.per_minute=1000000000")
bench_start_suite "$SOURCE"

# ---- the base's gateway: the suite gateway's own command line and environment, on the base's build and other ports
B_PID=""
stop_base_gateway() {
  local rc=$?
  if [[ -n "$B_PID" ]]; then kill "$B_PID" 2>/dev/null || true; fi
  return "$rc"
}
trap 'stop_base_gateway; bench_cleanup' EXIT
A_PID="$(cat "$STATE/pids/api-gateway.pid")"
mapfile -d '' command < <(sed "s#$SRC/#$BASE_SRC/#g" "/proc/$A_PID/cmdline")
mapfile -d '' environment < <(sed -z -e "s#^QUARKUS_HTTP_PORT=.*#QUARKUS_HTTP_PORT=$AB_PORT#" \
  -e "s#^HERALD_PORT=.*#HERALD_PORT=$AB_PORT#" \
  -e "s#^QUARKUS_MANAGEMENT_PORT=.*#QUARKUS_MANAGEMENT_PORT=$AB_MANAGEMENT_PORT#" "/proc/$A_PID/environ")
(cd "$BASE_SRC/api-gateway/target/quarkus-app" && exec env -i "${environment[@]}" "${command[@]}") \
  > "$STATE/base-gateway.log" 2>&1 &
B_PID=$!
for _ in $(seq 300); do listening "$AB_PORT" && break; sleep 0.2; done
listening "$AB_PORT" || { echo "the base gateway did not start:" >&2; tail -20 "$STATE/base-gateway.log" >&2; exit 1; }
say "base gateway ($BASE_SOURCE) on 127.0.0.1:$AB_PORT, pid $B_PID"

# ---- a workspace on a plan without a per-minute limit, a test key and a profile
ADMIN_TOKEN="$(grep '^HERALD_ADMIN_TOKEN=' "$STATE/credentials" | cut -d= -f2-)"
gateway="http://127.0.0.1:$GATEWAY_PORT"
workspace="$(curl -sf -X POST "$gateway/admin/v1/workspaces" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'content-type: application/json' -d '{"name":"gateway A/B bench"}' | grep -o '"id":"ws_[0-9a-f]*"' | cut -d'"' -f4)"
key="$(curl -sf -X POST "$gateway/admin/v1/workspaces/$workspace/api-keys" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'content-type: application/json' -d '{"mode":"test"}' | grep -o '"secret":"sk_test_[A-Za-z0-9]*"' | cut -d'"' -f4)"
curl -sf -o /dev/null -X PUT "$gateway/admin/v1/workspaces/$workspace/plan" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'content-type: application/json' -d '{"mode":"test","plan":"scale","plan_source":"comp"}'
profile="$(curl -sf -X POST "$gateway/api/v1/profiles" -H "Authorization: Bearer $key" \
  -H 'content-type: application/json' -d '{"name":"A/B bench profile"}' | grep -o '"id":"prf_[0-9a-f]*"' | cut -d'"' -f4)"
[[ -n "$profile" ]] || { echo "setup failed (workspace '$workspace', profile '$profile')" >&2; exit 1; }

# ---- load and CPU
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
jit_ticks() { # the JVM's C1/C2 compiler threads
  local total=0 task
  for task in /proc/"$1"/task/*; do
    if grep -q '^C[12] CompilerThre' "$task/comm" 2>/dev/null; then
      total=$(( total + $(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0) ))
    fi
  done
  echo "$total"
}
HZ="$(getconf CLK_TCK 2>/dev/null || echo 100)"
load() { # PORT SECONDS: wrk's summary
  wrk -t2 -c"$CONNECTIONS" -d"${2}s" --latency -H "Authorization: Bearer $key" \
    "http://127.0.0.1:$1/api/v1/profiles/$profile"
}
ROWS=""
measure() { # NAME PORT PID: one slice, a results row
  local t0 j0 out t1 j1 n rps p50 p99 bad
  t0="$(ticks "$3")"; j0="$(jit_ticks "$3")"
  out="$(load "$2" "$SLICE")"
  t1="$(ticks "$3")"; j1="$(jit_ticks "$3")"
  n="$(awk '/requests in/ {print $1}' <<< "$out")"
  rps="$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<< "$out")"
  p50="$(awk '$1 == "50%" {print $2}' <<< "$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<< "$out")"
  bad="$(awk '/Non-2xx/ {print $NF}' <<< "$out")"
  local us jit
  us="$(( (t1 - t0) * 1000000 / HZ / n ))"
  jit="$(( (j1 - j0) * 1000000 / HZ / n ))"
  say "  $1: $rps req/s, p50 $p50, p99 $p99, non-2xx ${bad:-0}, JVM $us µs/request (JIT $jit)"
  ROWS+="| $1 | $n | ${bad:-0} | $rps | $p50 | $p99 | $us | $jit |"$'\n'
  echo "$us $rps" >> "$STATE/ab-$1"
}

say "warm-up: ${WARMUP} s of load on each build, in 10 s turns"
for _ in $(seq $(( (WARMUP + 9) / 10 ))); do
  load "$GATEWAY_PORT" 10 > /dev/null
  load "$AB_PORT" 10 > /dev/null
done
for round in $(seq "$ROUNDS"); do
  say "round $round of $ROUNDS"
  if (( round % 2 )); then
    measure base "$AB_PORT" "$B_PID"; measure change "$GATEWAY_PORT" "$A_PID"
  else
    measure change "$GATEWAY_PORT" "$A_PID"; measure base "$AB_PORT" "$B_PID"
  fi
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
range() { sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {print lo "-" hi}'; }
summary=""
for build in change base; do
  summary+="| $build | $(cut -d' ' -f1 "$STATE/ab-$build" | median) | $(cut -d' ' -f1 "$STATE/ab-$build" | range) | $(cut -d' ' -f2 "$STATE/ab-$build" | median) |"$'\n'
done
report="# Gateway A/B: two builds of api-gateway on one suite

| build | gateway JVM µs CPU / request, median of $ROUNDS slices | range | req/s, median |
|---|---:|---:|---:|
$summary
| setting | |
|---|---|
| date (UTC) | $(date -u +%Y-%m-%dT%H:%M:%SZ) |
| change (the suite's gateway, 127.0.0.1:$GATEWAY_PORT) | $SOURCE |
| base (beside it, 127.0.0.1:$AB_PORT, same database, Kafka and services) | $BASE_SOURCE |
| machine | $(bench_machine) |
| load | wrk, $CONNECTIONS keep-alive connections, \`GET /api/v1/profiles/{id}\` with a test key, per-minute limit lifted; ${WARMUP} s warm-up on each build in 10 s turns, then $ROUNDS ABBA rounds of ${SLICE} s slices |
| CPU | utime + stime of each gateway JVM (/proc/<pid>/stat) over its slice, per answered request; JIT: its C1/C2 compiler threads' part |

| slice | requests | non-2xx | req/s | p50 | p99 | JVM µs / request | of which JIT |
|---|---:|---:|---:|---:|---:|---:|---:|
$ROWS"
echo "$report"
if [[ "$NO_RESULTS" == 0 ]]; then
  [[ -n "$OUT" ]] || OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-gateway-ab.md"
  echo "$report" > "$OUT"
  say "results: $OUT"
fi
