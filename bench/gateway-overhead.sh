#!/usr/bin/env bash
# Gateway overhead benchmark: GET /profiles/{id} directly on profiles-service and through api-gateway, in the
# same run, on a suite this script starts (./herald up --detach, its own state directory and ports) and stops.
# See bench/README.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"

usage() {
  cat <<'EOF'
Usage: bench/gateway-overhead.sh [options]

  --ref REF          benchmark this commit (default HEAD): exported with git archive into
                     $BENCH_CACHE/<key> (default ~/.cache/herald-bench; key: the files outside bench/) and built there once with
                     ./mvnw -B -q -DskipTests package (no install, nothing in the repository is touched)
  --worktree         benchmark the working tree instead, uncommitted changes included (./herald builds
                     what is stale, as ./herald up would)
  --limit-mode MODE  how phases 2 and 3 get past the plans' per-minute limit (see bench/README.md):
                     auto (default): override when the code measured has the plan catalog override, else relay
                     override: usage-service runs with HERALD_USAGE_PLAN_OVERRIDES=scale.per_minute=1000000000
                     relay: the gateway reads entitlements through the bench's relay, which lifts per_minute
                     real: keep the plan's limit (phases 2 and 3 are then rate limited; 429s are counted)
  --connections N    concurrent keep-alive connections (default 8)
  --warmup S         minimum warm-up seconds per target (default 90); the warm-up alternates 5 s chunks of
                     each target until each served --warmup-requests N (250000) and both throughputs are
                     steady (within 10% of the previous chunk), at most --warmup-max S (150) per target.
                     The gateway's JIT needs that long: stopped after 60 s, its warm-up looked steady while it
                     still compiled, and its JVM's CPU per request read 234 against 151 us warmed up
                     (results/2026-11-29-1054-gateway-short-warmup.md, -1101.md); the CPU tables now show
                     the JVMs' JIT compiler threads, so a measurement still compiling shows
  --duration S       measured seconds per target (default 30), split into --slices (default 2) in ABBA order
  --real-phase S     seconds of phase 1, the gateway under the real plan limit (default 10; 0 skips it)
  --low-load S       measured seconds per target of phase 3, one connection (default 10; 0 skips it)
  --hop S            measured seconds per target of phase 4 (default 30; 0 skips it): direct against a bare
                     Vert.x proxy in front of profiles-service (bench/BareProxy.java), the ceiling for any HTTP hop
  --wait-idle S      before the warm-up, wait up to S seconds (default 60) for other processes to use under
                     10% of the CPU; the run goes on regardless, and the results say how busy the machine was
  --out FILE         results file (default bench/results/<UTC date-time>.md); --no-results writes none
  --keep-state       keep the suite's temporary state directory (logs) after the run
  -h, --help

Ports (all 127.0.0.1): gateway $BENCH_GATEWAY_PORT (18080), PostgreSQL $BENCH_POSTGRES_PORT (15329), Kafka
$BENCH_KAFKA_PORT/$BENCH_KAFKA_CONTROLLER_PORT (19192/19193), relay $BENCH_RELAY_PORT (18186), bare proxy
$BENCH_HOP_PORT (18181). The services'
ports 8181-8186 are fixed, so the benchmark refuses to run while another Herald suite is up.
EOF
}

REF=HEAD
WORKTREE=0
LIMIT_MODE=auto
CONNECTIONS=8
WARMUP=90
WARMUP_MAX=150
WARMUP_REQUESTS=250000
DURATION=30
SLICES=2
REAL_PHASE=10
LOW_LOAD=10
HOP=30
WAIT_IDLE=60
OUT=""
NO_RESULTS=0
KEEP_STATE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --limit-mode) LIMIT_MODE="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --warmup-max) WARMUP_MAX="$2"; shift 2 ;;
    --warmup-requests) WARMUP_REQUESTS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --slices) SLICES="$2"; shift 2 ;;
    --real-phase) REAL_PHASE="$2"; shift 2 ;;
    --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
    --low-load) LOW_LOAD="$2"; shift 2 ;;
    --hop) HOP="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$LIMIT_MODE" in auto|override|relay|real) ;; *) echo "--limit-mode is auto, override, relay or real" >&2; exit 2 ;; esac

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
RELAY_PORT="${BENCH_RELAY_PORT:-18186}"
HOP_PORT="${BENCH_HOP_PORT:-18181}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_require_java

# ---- refuse to run next to another suite: the service ports are fixed
BENCH_PORT_VARIABLES_TAIL="BENCH_KAFKA_CONTROLLER_PORT, BENCH_RELAY_PORT or BENCH_HOP_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$RELAY_PORT" "$HOP_PORT"

# ---- the code to measure (sets SRC and SOURCE)
bench_prepare_source

# ---- start the suite in a state directory of its own (stopped on every exit)
bench_make_state
# the bench client, compiled before the suite starts (with the classes in bench/support)
bench_compile "$STATE/bench-classes" "" "$BENCH/Bench.java"

bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
OVERRIDE="scale.per_minute=1000000000"
if [[ "$LIMIT_MODE" == auto ]]; then
  # The plan catalog override (usage-service's HERALD_USAGE_PLAN_OVERRIDES) exists from commit ec1433f on.
  if grep -rqs planOverrides "$SRC/usage-service/src/main/java"; then LIMIT_MODE=override; else LIMIT_MODE=relay; fi
fi
case "$LIMIT_MODE" in
  override) suite_env+=(HERALD_USAGE_PLAN_OVERRIDES="$OVERRIDE") ;;
  # The gateway's usage-service client (quarkus.rest-client.usage-service.url) goes through the bench's relay;
  # the launcher passes its environment on to every service.
  relay) suite_env+=(QUARKUS_REST_CLIENT_USAGE_SERVICE_URL="http://127.0.0.1:$RELAY_PORT") ;;
esac

bench_start_suite "$SOURCE, limit mode $LIMIT_MODE"

# ---- phase 4's bare proxy (bench/BareProxy.java), on the Vert.x and Netty jars of the build measured, run as the
# launcher runs a service; stopped before the suite on every exit
HOP_PID=""
stop_bare_proxy() {
  local rc=$?
  if [[ -n "$HOP_PID" ]]; then kill "$HOP_PID" 2>/dev/null || true; fi
  return "$rc"
}
trap 'stop_bare_proxy; bench_cleanup' EXIT
if (( HOP > 0 )); then
  hop_lib="$SRC/api-gateway/target/quarkus-app/lib/main"
  hop_cp="$(ls "$hop_lib"/io.vertx.vertx-core-*.jar "$hop_lib"/io.netty.netty-*.jar | tr '\n' ':')"
  mkdir -p "$STATE/bare-proxy"
  javac -d "$STATE/bare-proxy" -cp "$hop_cp" "$BENCH/BareProxy.java"
  java -Xms64m -Xmx320m -XX:+UseSerialGC -cp "$STATE/bare-proxy:$hop_cp" BareProxy "$HOP_PORT" 8181 \
    > "$STATE/bare-proxy.log" 2>&1 &
  HOP_PID=$!
  for _ in $(seq 100); do listening "$HOP_PORT" && break; sleep 0.2; done
  listening "$HOP_PORT" || { echo "the bare proxy did not start:" >&2; cat "$STATE/bare-proxy.log" >&2; exit 1; }
  say "bare proxy (phase 4) on 127.0.0.1:$HOP_PORT, pid $HOP_PID"
fi

# ---- run
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
elif [[ -z "$OUT" ]]; then
  OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M).md"
fi
MACHINE="$(bench_machine)"
budget=$(( 4 * (WARMUP > WARMUP_MAX ? WARMUP : WARMUP_MAX) + 2 * DURATION + 2 * LOW_LOAD + 2 * HOP + REAL_PHASE + WAIT_IDLE + 120 ))
timeout "$budget" java -Xms64m -Xmx512m -XX:+UseSerialGC -cp "$STATE/bench-classes" Bench \
  --state="$STATE" --gateway-port="$GATEWAY_PORT" --direct-port=8181 --relay-port="$RELAY_PORT" \
  --usage-url=http://127.0.0.1:8186 --limit-mode="$LIMIT_MODE" --override="HERALD_USAGE_PLAN_OVERRIDES=$OVERRIDE" --connections="$CONNECTIONS" \
  --warmup="$WARMUP" --warmup-max="$WARMUP_MAX" --warmup-requests="$WARMUP_REQUESTS" --duration="$DURATION" --slices="$SLICES" --real-phase="$REAL_PHASE" --wait-idle="$WAIT_IDLE" --low-load="$LOW_LOAD" \
  --hop-port="$HOP_PORT" --hop-duration="$HOP" --hop-pid="${HOP_PID:-0}" \
  --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$MACHINE" --results="$OUT"
