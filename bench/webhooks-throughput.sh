#!/usr/bin/env bash
# Webhook delivery benchmark: webhook deliveries per second from webhooks-service to local receivers, and the
# post.finalized event -> delivery latency (p50/p90/p99), at several offered rates and at the maximum, on a suite
# this script starts (./herald up --detach, its own state directory and ports) and stops. The bench JVM publishes
# post.finalized events to Kafka as posts-service's outbox relay does, for workspaces whose endpoints it registered
# through the public API, and receives the deliveries itself. See bench/README.md, section "Webhook deliveries".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"

usage() {
  cat <<'EOF'
Usage: bench/webhooks-throughput.sh [options]

  --ref REF                 benchmark this commit (default HEAD): exported with git archive into
                            $BENCH_CACHE/<key> (default ~/.cache/herald-bench; key: the files outside bench/) and built
                            there once with ./mvnw -B -q -DskipTests package (no install, nothing in the repository is touched)
  --worktree                benchmark the working tree instead, uncommitted changes included (./herald builds what is
                            stale, as ./herald up would)
  --rates LIST              open-loop phases, deliveries/s offered, comma-separated (default 500,1000,2000,3000); a phase
                            that delivers under --keep-up of its rate during the load ends the list
  --duration S              seconds of load per rate (default 30)
  --warmup S                warm-up seconds (default 60) at --warmup-rate deliveries/s (default 1000), then drained
  --max-deliveries N        the maximum phase: N deliveries' events produced at once, timed until the last arrives
                            (default 60000; 0 skips it)
  --workspaces N            workspaces (default 8), each registered through the admin API with a test key
  --endpoints-per-workspace N
                            endpoints per workspace (default 1), each on its own receiver port; every event goes to
                            every endpoint of its workspace (fan-out), so events/s = deliveries/s / N
  --drain-timeout S         after each phase, wait at most S s (default 120) for every delivery
  --keep-up F               fraction of the offered rate a phase must deliver during its load to go on (default 0.9)
  --verify-every N          verify the signature of every N-th request per receiver (default 10)
  --wait-idle S             before the warm-up, wait up to S s (default 60) for other processes to use under 10% of the
                            CPU; the run goes on regardless, and the results say how busy the machine was
  --wait-quiet S            before starting the suite, wait up to S s (default 0: don't) for a 1-minute load average
                            under 0.8, no other java, mvn or postgres process and no other suite on the service ports
                            (polled every 30 s); the results record what was seen
  --out FILE                results file (default bench/results/<UTC date-time>-webhooks.md); --no-results writes none
  --keep-state              keep the suite's temporary state directory (logs) after the run
  -h, --help

webhooks-service settings: HERALD_WEBHOOKS_* variables in the environment (e.g. HERALD_WEBHOOKS_CLAIM_BATCH_SIZE,
HERALD_WEBHOOKS_MAX_IN_FLIGHT_PER_ENDPOINT) reach the service through the launcher, and the results list them.

Ports (all 127.0.0.1): gateway $BENCH_GATEWAY_PORT (18080), PostgreSQL $BENCH_POSTGRES_PORT (15329), Kafka
$BENCH_KAFKA_PORT/$BENCH_KAFKA_CONTROLLER_PORT (19192/19193), receivers from $BENCH_RECEIVER_PORT (18300), one per
endpoint. The services' ports 8181-8186 are fixed, so the benchmark refuses to run while another Herald suite is up.
Needs java (17); the Kafka producer is kafka-clients from the suite's own Kafka distribution
(deploy/kafka-broker/target/kafka-libs, or HERALD_KAFKA_LIBS).
EOF
}

REF=HEAD
WORKTREE=0
RATES=500,1000,2000,3000
DURATION=30
WARMUP=60
WARMUP_RATE=1000
MAX_DELIVERIES=60000
WORKSPACES=8
PER_WORKSPACE=1
DRAIN_TIMEOUT=120
KEEP_UP=0.9
VERIFY_EVERY=10
WAIT_IDLE=60
WAIT_QUIET=0
OUT=""
NO_RESULTS=0
KEEP_STATE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --rates) RATES="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --warmup-rate) WARMUP_RATE="$2"; shift 2 ;;
    --max-deliveries) MAX_DELIVERIES="$2"; shift 2 ;;
    --workspaces) WORKSPACES="$2"; shift 2 ;;
    --endpoints-per-workspace) PER_WORKSPACE="$2"; shift 2 ;;
    --drain-timeout) DRAIN_TIMEOUT="$2"; shift 2 ;;
    --keep-up) KEEP_UP="$2"; shift 2 ;;
    --verify-every) VERIFY_EVERY="$2"; shift 2 ;;
    --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$RATES" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "--rates is a comma-separated list of numbers" >&2; exit 2; }
for n in "$DURATION" "$WARMUP" "$WARMUP_RATE" "$MAX_DELIVERIES" "$WORKSPACES" "$PER_WORKSPACE" "$DRAIN_TIMEOUT" "$VERIFY_EVERY" \
         "$WAIT_IDLE" "$WAIT_QUIET"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "expected a whole number, got '$n' (see --help)" >&2; exit 2; }
done
(( WORKSPACES >= 1 && PER_WORKSPACE >= 1 && PER_WORKSPACE <= 25 )) || {
  echo "--workspaces must be at least 1 and --endpoints-per-workspace 1 to 25 (endpoint creation counts against the free plan's 30 requests a minute)" >&2; exit 2; }

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
RECEIVER_PORT="${BENCH_RECEIVER_PORT:-18300}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"
ENDPOINTS=$(( WORKSPACES * PER_WORKSPACE ))

bench_require_java

# ---- before the suite starts: optionally wait for a quiet machine (load average and other servers)
bench_wait_quiet "$WAIT_QUIET"

receiver_ports=()
for (( i = 0; i < ENDPOINTS; i++ )); do receiver_ports+=( $(( RECEIVER_PORT + i )) ); done
BENCH_PORT_VARIABLES_TAIL="BENCH_KAFKA_CONTROLLER_PORT or BENCH_RECEIVER_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "${receiver_ports[@]}"

# ---- the code to measure (sets SRC and SOURCE)
bench_prepare_source

LIBS="${HERALD_KAFKA_LIBS:-$SRC/deploy/kafka-broker/target/kafka-libs}"
KAFKA_CLIENTS="$(ls "$LIBS"/kafka-clients-*.jar 2>/dev/null | head -1 || true)"
SLF4J="$(ls "$LIBS"/slf4j-api-*.jar 2>/dev/null | head -1 || true)"

# ---- start the suite in a state directory of its own (stopped on every exit)
bench_make_state
bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
WEBHOOKS_ENV="$(env | grep '^HERALD_WEBHOOKS_' | sort | paste -sd' ' - || true)"
bench_start_suite "$SOURCE${WEBHOOKS_ENV:+, $WEBHOOKS_ENV}"

if [[ -z "$KAFKA_CLIENTS" || -z "$SLF4J" ]]; then
  LIBS="${HERALD_KAFKA_LIBS:-$SRC/deploy/kafka-broker/target/kafka-libs}"
  KAFKA_CLIENTS="$(ls "$LIBS"/kafka-clients-*.jar 2>/dev/null | head -1 || true)"
  SLF4J="$(ls "$LIBS"/slf4j-api-*.jar 2>/dev/null | head -1 || true)"
  [[ -n "$KAFKA_CLIENTS" && -n "$SLF4J" ]] || { echo "kafka-clients and slf4j-api jars not found in $LIBS" >&2; exit 1; }
fi

# ---- run
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
elif [[ -z "$OUT" ]]; then
  OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-webhooks.md"
fi
phases=$(( $(tr ',' '\n' <<<"$RATES" | wc -l) + 2 ))
budget=$(( WAIT_IDLE + 60 + WARMUP + DRAIN_TIMEOUT + phases * (DURATION + DRAIN_TIMEOUT + 60) + (DRAIN_TIMEOUT > 300 ? DRAIN_TIMEOUT : 300) + 300 ))
bench_compile "$STATE/bench-classes" "$KAFKA_CLIENTS:$SLF4J" "$BENCH/WebhooksBench.java"
timeout "$budget" java -Xms256m -Xmx1g -XX:+UseSerialGC -cp "$STATE/bench-classes:$KAFKA_CLIENTS:$SLF4J" WebhooksBench \
  --state="$STATE" --gateway-port="$GATEWAY_PORT" --postgres-port="$POSTGRES_PORT" --kafka-port="$KAFKA_PORT" \
  --receiver-port="$RECEIVER_PORT" --workspaces="$WORKSPACES" --endpoints-per-workspace="$PER_WORKSPACE" --rates="$RATES" \
  --duration="$DURATION" --warmup="$WARMUP" --warmup-rate="$WARMUP_RATE" --max-deliveries="$MAX_DELIVERIES" \
  --drain-timeout="$DRAIN_TIMEOUT" --keep-up="$KEEP_UP" --verify-every="$VERIFY_EVERY" --wait-idle="$WAIT_IDLE" \
  --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$(bench_machine)" \
  --webhooks-env="${WEBHOOKS_ENV:-defaults (no HERALD_WEBHOOKS_* set besides ALLOW_PRIVATE_URLS=true, set by the launcher)}" \
  --quiet="$QUIET_REPORT" --results="$OUT"
