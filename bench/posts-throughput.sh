#!/usr/bin/env bash
# Posts pipeline benchmark: accepted POST /posts per second through the gateway (one sandbox target each, test
# mode, the plans' limits on), accepted -> published latency, and the same SQL writes issued directly with pgbench
# as the physical reference, in one run on a suite this script starts (./herald up --detach, its own state
# directory and ports) and stops. See bench/README.md, section "Posts pipeline".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"

usage() {
  cat <<'EOF'
Usage: bench/posts-throughput.sh [options]

  --ref REF            benchmark this commit (default HEAD): exported with git archive into
                       $BENCH_CACHE/<key> (default ~/.cache/herald-bench; key: the files outside bench/) and built
                       there once with ./mvnw -B -q -DskipTests package (no install, nothing in the repository is touched)
  --worktree           benchmark the working tree instead, uncommitted changes included (./herald builds what is
                       stale, as ./herald up would)
  --rate R             the pacer's maximum, posts/s over all workspaces (default 1250, or derived from --workspaces)
  --workspaces N       workspaces to spread the load over (default: derived from --rate and the loaded seconds, so
                       no workspace passes 290 of its 300 requests in any calendar minute nor 990 of its 1,000 test
                       publications; the limits stay on)
  --connections LIST   closed-loop phases, comma-separated connection counts (default 8,16,32)
  --warmup S           minimum warm-up (default 120 s) before the first phase: closed loop at the largest count,
                       gated by --backlog, in 15 s chunks until the accepted rate is steady and the JIT compilers
                       use under 10% of the machine, at most --warmup-max S (default 300)
  --duration S         measured seconds per phase, and of the pgbench reference (default 20)
  --backlog N          the gate of the warm-up and of the sustained phase: no post is sent while more than N
                       (default 500) are queued or publishing, until fewer than N/2 are
  --no-sustained       skip the sustained phase (straight after the warm-up, the same gated closed loop, measured)
  --open-rate R        open-loop phase at R posts/s offered; auto (default): 80% of the sustained phase's accepted
                       and published rates, the lower (70% of the best closed loop without it); 0 skips it
  --open-connections N connections of the open loop (default 64)
  --drain-timeout S    after each phase, wait at most S s (default 120) for the pipeline to drain
  --pgbench-clients N  pgbench -c (default 8)
  --pgbench-threads N  pgbench -j (default 2)
  --wait-idle S        before the warm-up, wait up to S seconds (default 60) for other processes to use under 10%
                       of the CPU; the run goes on regardless, and the results say how busy the machine was
  --out FILE           results file (default bench/results/<UTC date-time>-posts.md); --no-results writes none
  --keep-state         keep the suite's temporary state directory (logs) after the run
  --self-test          check the time-to-steady computation on made-up warm-ups (no suite, seconds); exit 1 if wrong
  -h, --help

Ports (all 127.0.0.1): gateway $BENCH_GATEWAY_PORT (18080), PostgreSQL $BENCH_POSTGRES_PORT (15329), Kafka
$BENCH_KAFKA_PORT/$BENCH_KAFKA_CONTROLLER_PORT (19192/19193). The services' ports 8181-8186 are fixed, so the
benchmark refuses to run while another Herald suite is up. Needs java (17), psql and pgbench on the PATH.
EOF
}

REF=HEAD
WORKTREE=0
RATE=auto
WORKSPACES=auto
CONNECTIONS=8,16,32
WARMUP=120
WARMUP_MAX=300
DURATION=20
BACKLOG=500
SUSTAINED=true
OPEN_RATE=auto
OPEN_CONNECTIONS=64
DRAIN_TIMEOUT=120
PGBENCH_CLIENTS=8
PGBENCH_THREADS=2
WAIT_IDLE=60
OUT=""
NO_RESULTS=0
KEEP_STATE=0
SELF_TEST=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --rate) RATE="$2"; shift 2 ;;
    --workspaces) WORKSPACES="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --warmup-max) WARMUP_MAX="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --backlog) BACKLOG="$2"; shift 2 ;;
    --no-sustained) SUSTAINED=false; shift ;;
    --open-rate) OPEN_RATE="$2"; shift 2 ;;
    --open-connections) OPEN_CONNECTIONS="$2"; shift 2 ;;
    --drain-timeout) DRAIN_TIMEOUT="$2"; shift 2 ;;
    --pgbench-clients) PGBENCH_CLIENTS="$2"; shift 2 ;;
    --pgbench-threads) PGBENCH_THREADS="$2"; shift 2 ;;
    --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    --self-test) SELF_TEST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$CONNECTIONS" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "--connections is a comma-separated list of numbers" >&2; exit 2; }

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_require_java
if [[ "$SELF_TEST" == 1 ]]; then
  classes="$(mktemp -d "${TMPDIR:-/tmp}/herald-posts-classes.XXXXXX")"
  trap 'rm -rf "$classes"' EXIT
  bench_compile "$classes" "" "$BENCH/PostsBench.java" "$BENCH"/posts/*.java
  java -cp "$classes" PostsBench --self-test=true
  exit
fi
for tool in psql pgbench; do
  command -v "$tool" >/dev/null || { echo "$tool is required on the PATH (Debian: apt-get install postgresql-client)" >&2; exit 1; }
done

BENCH_PORT_VARIABLES_TAIL="or BENCH_KAFKA_CONTROLLER_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"

# ---- the code to measure (sets SRC and SOURCE)
bench_prepare_source

# ---- start the suite in a state directory of its own (stopped on every exit); the plans' limits stay as they are
bench_make_state
# the bench client, compiled before the suite starts (with the classes in bench/support)
bench_compile "$STATE/bench-classes" "" "$BENCH/PostsBench.java" "$BENCH"/posts/*.java
bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
bench_start_suite "$SOURCE, limits on"

# ---- run
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
elif [[ -z "$OUT" ]]; then
  OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-posts.md"
fi
phases=$(( $(tr ',' '\n' <<<"$CONNECTIONS" | wc -l) + 2 ))
budget=$(( WAIT_IDLE + (WARMUP > WARMUP_MAX ? WARMUP : WARMUP_MAX) + DRAIN_TIMEOUT + (phases + 1) * (DURATION + DRAIN_TIMEOUT) + DURATION + 5 + 420 ))
timeout "$budget" java -Xms64m -Xmx768m -XX:+UseSerialGC -cp "$STATE/bench-classes" PostsBench \
  --state="$STATE" --src="$SRC" --bench-dir="$BENCH" --gateway-port="$GATEWAY_PORT" --postgres-port="$POSTGRES_PORT" \
  --rate="$RATE" --workspaces="$WORKSPACES" --connections="$CONNECTIONS" --warmup="$WARMUP" --warmup-max="$WARMUP_MAX" --duration="$DURATION" \
  --backlog="$BACKLOG" --sustained="$SUSTAINED" --open-rate="$OPEN_RATE" --open-connections="$OPEN_CONNECTIONS" --drain-timeout="$DRAIN_TIMEOUT" \
  --pgbench-clients="$PGBENCH_CLIENTS" --pgbench-threads="$PGBENCH_THREADS" --wait-idle="$WAIT_IDLE" \
  --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$(bench_machine)" --results="$OUT"
