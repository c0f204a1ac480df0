#!/usr/bin/env bash
# Soak (issue 9): POST /posts through the gateway at a fixed open-loop rate (half the measured capacity by default)
# for 30 minutes, with webhook deliveries to a receiver in the bench JVM, on a suite this script starts
# (./herald up --detach, its own state directory and ports) and stops. Every --sample seconds it records the load,
# the latencies, each service JVM's heap after GC and RSS, the outbox backlog, the Kafka consumer lag, posts in flight
# and the databases' size; the verdict compares the first window after the warm-up with the last one. See
# bench/README.md, section "Soak".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"
COMMAND="bench/soak.sh"
(( $# == 0 )) || COMMAND+="$(printf ' %q' "$@")"

# The capacity the default rate is half of: the sustained phase of the latest complete posts result in bench/README.md
# (results/2026-11-22-2209-posts.md, commit 252941e, a quiet machine): 24 posts/s accepted, 28 published, with the
# backlog held under 500. Its closed loop accepted 57 posts/s, but only for seconds: the pipeline publishes about
# 24-28 posts/s, so that is the rate it sustains end to end.
CAPACITY=24

usage() {
  cat <<'EOF'
Usage: bench/soak.sh [options]

  --ref REF          soak this commit (default HEAD): exported with git archive into $BENCH_CACHE/<key> (default
                     ~/.cache/herald-bench; key: the files outside bench/) and built there once with
                     ./mvnw -B -q -DskipTests package (no install, nothing in the repository is touched)
  --worktree         soak the working tree instead, uncommitted changes included (./herald builds what is stale, as
                     ./herald up would; HERALD_SKIP_BUILD=1 runs what is built)
  --rate R           posts/s offered, open loop (default 12: half of 24 posts/s, the rate the posts pipeline sustained
                     end to end in the latest complete posts result, results/2026-11-22-2209-posts.md: 24 accepted and
                     28 published per second with the backlog bounded; the 57/s of its closed loop is a burst the
                     pipeline cannot publish). After a faster posts result, pass half its sustained rate.
  --duration S       seconds of load, warm-up included (default 2580: 30 minutes judged after the warm-up)
  --sample S         seconds per sample (default 30)
  --warmup S         first seconds of the load not judged (default 780: at 12 posts/s the freshly started suite
                     on a 2-core machine builds a backlog while its JVMs compile, which took until t = 600 s to drain
                     on 2026-11-23; the first window must start on a warm, drained suite)
  --ramp S           the offered rate climbs linearly from a tenth of --rate to --rate over the first S s of the warm-up
                     (default 120; 0: full rate from the start). A cold suite (no JIT yet) offered the full rate at once
                     builds a backlog that takes minutes to drain, which is start-up, not what a soak measures
  --window S         length of the two windows the verdict compares (default 300): the first right after the warm-up,
                     the last at the end of the load. When warm-up and windows do not fit in --duration, a sixth of it
                     is the warm-up and the rest is split into the two windows (the results say so)
  --gc-every S       force a full GC in every service JVM and the broker (jcmd GC.run) every S s after the warm-up (default 300; 0:
                     only at the warm-up's end, both ends of both windows and the end), just before that sample's readings
  --connections N    keep-alive connections of the open loop (default 32)
  --workspaces N     workspaces (default: derived from --rate and --duration so that none passes 290 of its 300 requests
                     in any calendar minute nor 990 of its 1,000 test publications; the limits stay on)
  --webhooks         register one webhook endpoint per workspace, received by a JDK HttpServer in the bench JVM (default)
  --no-webhooks      no webhook endpoints
  --drain-timeout S  after the load, wait at most S s (default 120) for every post to be final and every webhook in
  --wait-idle S      before the load, wait up to S s (default 60) for other processes to use under 10% of the CPU
  --wait-quiet S     before starting the suite, wait up to S s (default 0: don't) for a 1-minute load average under
                     0.8, no other java, mvn or postgres process and no other suite on the service ports
  --out FILE         results file (default bench/results/<UTC date-time>-soak.md); --no-results writes none
  --keep-state       keep the suite's temporary state directory (logs) after the run
  --self-test        check the verdict's logic on made-up runs (flat, and each kind of drift), no suite; exit 1 if wrong
  -h, --help

Ports (all 127.0.0.1): gateway $BENCH_GATEWAY_PORT (18080), PostgreSQL $BENCH_POSTGRES_PORT (15329), Kafka
$BENCH_KAFKA_PORT/$BENCH_KAFKA_CONTROLLER_PORT (19192/19193), webhook receiver $BENCH_RECEIVER_PORT (18390). The services'
ports 8181-8186 are fixed, so the soak refuses to run while another Herald suite is up. Needs a JDK 17 (java, javac,
jcmd) on the PATH.
EOF
}

REF=HEAD
WORKTREE=0
RATE=""
DURATION=2580
SAMPLE=30
WARMUP=780
RAMP=120
WINDOW=300
GC_EVERY=300
CONNECTIONS=32
WORKSPACES=auto
WEBHOOKS=true
DRAIN_TIMEOUT=120
WAIT_IDLE=60
WAIT_QUIET=0
OUT=""
NO_RESULTS=0
KEEP_STATE=0
SELF_TEST=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --rate) RATE="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --sample) SAMPLE="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --ramp) RAMP="$2"; shift 2 ;;
    --window) WINDOW="$2"; shift 2 ;;
    --gc-every) GC_EVERY="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --workspaces) WORKSPACES="$2"; shift 2 ;;
    --webhooks) WEBHOOKS=true; shift ;;
    --no-webhooks) WEBHOOKS=false; shift ;;
    --drain-timeout) DRAIN_TIMEOUT="$2"; shift 2 ;;
    --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    --self-test) SELF_TEST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$DURATION" "$SAMPLE" "$WARMUP" "$WINDOW" "$GC_EVERY" "$CONNECTIONS" "$DRAIN_TIMEOUT" "$WAIT_IDLE" "$WAIT_QUIET"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "expected a whole number, got '$n' (see --help)" >&2; exit 2; }
done
[[ "$WORKSPACES" == auto || "$WORKSPACES" =~ ^[1-9][0-9]*$ ]] || { echo "--workspaces is a number or auto" >&2; exit 2; }
(( SAMPLE >= 5 && CONNECTIONS >= 1 )) || { echo "--sample must be at least 5 s and --connections at least 1" >&2; exit 2; }
(( DURATION >= 4 * SAMPLE )) || { echo "--duration must be at least 4 samples (4 x --sample)" >&2; exit 2; }
if [[ -z "$RATE" ]]; then
  RATE=$(( CAPACITY / 2 ))
  RATE_NOTE="the default: half of ${CAPACITY} posts/s, the sustained rate of the latest complete posts result (results/2026-11-22-2209-posts.md)"
else
  [[ "$RATE" =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v r="$RATE" 'BEGIN { exit !(r > 0) }' || { echo "--rate must be a positive number" >&2; exit 2; }
  RATE_NOTE="given with --rate; the default would be $(( CAPACITY / 2 )), half of the ${CAPACITY} posts/s the latest complete posts result sustained"
fi

bench_require_java
command -v jcmd >/dev/null || { echo "jcmd (JDK 17) is required on the PATH" >&2; exit 1; }

compile() {
  bench_compile "$1" "" "$BENCH/PostsBench.java" "$BENCH"/posts/*.java "$BENCH/SoakBench.java"
}

if [[ "$SELF_TEST" == 1 ]]; then
  classes="$(mktemp -d "${TMPDIR:-/tmp}/herald-soak-classes.XXXXXX")"
  trap 'rm -rf "$classes"' EXIT
  compile "$classes"
  java -cp "$classes" SoakBench --self-test=true
  exit
fi

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
RECEIVER_PORT="${BENCH_RECEIVER_PORT:-18390}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_wait_quiet "$WAIT_QUIET"
BENCH_PORT_VARIABLES_TAIL="BENCH_KAFKA_CONTROLLER_PORT or BENCH_RECEIVER_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$RECEIVER_PORT"

# ---- the code to soak (sets SRC and SOURCE)
bench_prepare_source

# ---- the bench client, compiled before the suite starts (it reuses PostsBench's classes)
bench_make_state
compile "$STATE/soak-classes"

# ---- start the suite in a state directory of its own (stopped on every exit); the plans' limits stay as they are
bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
bench_start_suite "$SOURCE, limits on"

# ---- run
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
elif [[ -z "$OUT" ]]; then
  OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-soak.md"
fi
budget=$(( WAIT_IDLE + DURATION + DRAIN_TIMEOUT + 600 ))
timeout "$budget" java -Xms64m -Xmx768m -XX:+UseSerialGC --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED -cp "$STATE/soak-classes" SoakBench \
  --state="$STATE" --src="$SRC" --gateway-port="$GATEWAY_PORT" --postgres-port="$POSTGRES_PORT" --receiver-port="$RECEIVER_PORT" \
  --rate="$RATE" --rate-note="$RATE_NOTE" --workspaces="$WORKSPACES" --duration="$DURATION" --sample="$SAMPLE" --warmup="$WARMUP" --ramp="$RAMP" \
  --window="$WINDOW" --gc-every="$GC_EVERY" --connections="$CONNECTIONS" --webhooks="$WEBHOOKS" --drain-timeout="$DRAIN_TIMEOUT" \
  --wait-idle="$WAIT_IDLE" --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$(bench_machine)" \
  --quiet="${QUIET_REPORT:-}" --command="$COMMAND" --results="$OUT"
