#!/usr/bin/env bash
# Scheduled burst (issue 37): 10,000 test posts (one sandbox target each, limits on) scheduled for one instant a few
# minutes ahead, then the lag published_at - scheduled_at of every target, read through the public API; then a steady
# 50 scheduled posts/s for a few minutes, its lags read the same way. On a suite this script starts (./herald up
# --detach, its own state directory and ports) and stops. Writes bench/results/<UTC date-time>-burst.md and the plot
# beside it (.png). See bench/README.md, section "Scheduled burst".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"
COMMAND="bench/burst.sh"
(( $# == 0 )) || COMMAND+="$(printf ' %q' "$@")"
# The plot's library, from Maven Central through the project's wrapper (cached in $BENCH_CACHE/lib).
JFREECHART=org.jfree:jfreechart:1.5.6

usage() {
  cat <<'EOF'
Usage: bench/burst.sh [options]

  --ref REF              benchmark this commit (default HEAD): exported with git archive into $BENCH_CACHE/<key>
                         (default ~/.cache/herald-bench; key: the files outside bench/) and built there once with
                         ./mvnw -B -q -DskipTests package (no install, nothing in the repository is touched)
  --worktree             benchmark the working tree instead, uncommitted changes included
  --posts N              posts in the burst, all due at one instant (default 10000)
  --lead S|auto          seconds from the start of the burst's acceptance to its instant; auto (default): from the
                         warm-up's accepted rate, the time acceptance takes x1.5 plus 25 s, rounded up to the next whole
                         minute (customers schedule at round times)
  --deadline S           wait at most S s after the instant (default 180) for every post to be final; a post not published
                         by then counts as not final
  --connections N        connections of the warm-up and of the burst's acceptance, closed loop (default 16)
  --rate R               the pacer's maximum, posts/s over all workspaces (default 600); the workspace count follows
  --workspaces N         workspaces (default: derived so that none passes 290 of its 300 requests in any calendar minute
                         nor 988 of its 1,000 test publications; the limits stay on)
  --warmup S             minimum warm-up (default 120 s): posts due at once, gated closed loop, until the rate is steady
                         and the JIT compilers settle, at most --warmup-max S (default 240); then drained
  --steady-rate R        scheduled posts per second of the steady mode (default 50); 0 skips it
  --steady-duration S    seconds of the steady mode (default 180)
  --steady-ahead S       each steady post is due S s after it is sent (default 10; the API needs at least 5)
  --steady-connections N connections of the steady open loop (default 32)
  --drain-timeout S      after the warm-up, and after the steady mode's last due time, wait at most S s (default 120)
  --wait-idle S          before the warm-up, wait up to S s (default 60) for other processes to use under 10% of the CPU
  --wait-quiet S         before starting the suite, wait up to S s (default 0: don't) for a 1-minute load average under
                         0.8 and no other java, mvn or postgres process
  --out FILE             results file (default bench/results/<UTC date-time>-burst.md; the plot is FILE with .png);
                         --no-results writes none (the plot goes to the state directory, kept with --keep-state)
  --keep-state           keep the suite's temporary state directory (logs) after the run
  -h, --help

Time: the suite's start and setup (2-3 min), warm-up (2-4 min), the burst (lead 1-3 min, then until every post is final,
at most --deadline), the steady mode (--steady-duration + --steady-ahead + drain): about 12-16 minutes with the defaults.
Ports (all 127.0.0.1): gateway $BENCH_GATEWAY_PORT (18080), PostgreSQL $BENCH_POSTGRES_PORT (15329), Kafka
$BENCH_KAFKA_PORT/$BENCH_KAFKA_CONTROLLER_PORT (19192/19193). The services' ports 8181-8187 are fixed, so the
benchmark refuses to run while another Herald suite is up. Needs a JDK 17 (java, javac) on the PATH.
EOF
}

REF=HEAD
WORKTREE=0
POSTS=10000
LEAD=auto
DEADLINE=180
CONNECTIONS=16
RATE=600
WORKSPACES=auto
WARMUP=120
WARMUP_MAX=240
STEADY_RATE=50
STEADY_DURATION=180
STEADY_AHEAD=10
STEADY_CONNECTIONS=32
DRAIN_TIMEOUT=120
WAIT_IDLE=60
WAIT_QUIET=0
OUT=""
NO_RESULTS=0
KEEP_STATE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --posts) POSTS="$2"; shift 2 ;;
    --lead) LEAD="$2"; shift 2 ;;
    --deadline) DEADLINE="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --workspaces) WORKSPACES="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --warmup-max) WARMUP_MAX="$2"; shift 2 ;;
    --steady-rate) STEADY_RATE="$2"; shift 2 ;;
    --steady-duration) STEADY_DURATION="$2"; shift 2 ;;
    --steady-ahead) STEADY_AHEAD="$2"; shift 2 ;;
    --steady-connections) STEADY_CONNECTIONS="$2"; shift 2 ;;
    --drain-timeout) DRAIN_TIMEOUT="$2"; shift 2 ;;
    --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$POSTS" "$DEADLINE" "$CONNECTIONS" "$WARMUP" "$WARMUP_MAX" "$STEADY_DURATION" "$STEADY_AHEAD" "$STEADY_CONNECTIONS" \
    "$DRAIN_TIMEOUT" "$WAIT_IDLE" "$WAIT_QUIET"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "expected a whole number, got '$n' (see --help)" >&2; exit 2; }
done
[[ "$LEAD" == auto || "$LEAD" =~ ^[0-9]+$ ]] || { echo "--lead is a number of seconds or auto" >&2; exit 2; }
[[ "$WORKSPACES" == auto || "$WORKSPACES" =~ ^[1-9][0-9]*$ ]] || { echo "--workspaces is a number or auto" >&2; exit 2; }
[[ "$RATE" =~ ^[0-9]+([.][0-9]+)?$ && "$STEADY_RATE" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "--rate and --steady-rate are numbers" >&2; exit 2; }
(( POSTS >= 1 && CONNECTIONS >= 1 && STEADY_AHEAD >= 6 )) || { echo "--posts and --connections at least 1, --steady-ahead at least 6" >&2; exit 2; }

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_require_java
bench_wait_quiet "$WAIT_QUIET"
BENCH_PORT_VARIABLES_TAIL="or BENCH_KAFKA_CONTROLLER_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"

# ---- the plot's library, before anything slow: JFreeChart has no dependencies of its own
PLOT_JAR="$CACHE/lib/jfreechart-${JFREECHART##*:}.jar"
if [[ ! -f "$PLOT_JAR" ]]; then
  say "fetching $JFREECHART into $CACHE/lib"
  (cd "$ROOT" && ./mvnw -B -q -N dependency:copy -Dartifact="$JFREECHART" -DoutputDirectory="$CACHE/lib") >&2 || {
    echo "could not fetch $JFREECHART (Maven Central)" >&2; exit 1; }
fi

# ---- the code to measure (sets SRC and SOURCE)
bench_prepare_source

# ---- start the suite in a state directory of its own (stopped on every exit); the plans' limits stay as they are
bench_make_state
bench_suite_env "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
bench_start_suite "$SOURCE, limits on"

# ---- the bench client, with the Jackson of the build measured (read the API's answers) and JFreeChart (draw the plot)
LIBS="$SRC/posts-service/target/quarkus-app/lib/main"
JACKSON="$(ls "$LIBS"/com.fasterxml.jackson.core.jackson-{core,databind,annotations}-*.jar 2>/dev/null | paste -sd: -)"
[[ -n "$JACKSON" ]] || { echo "Jackson's jars not found in $LIBS" >&2; exit 1; }
bench_compile "$STATE/bench-classes" "$JACKSON:$PLOT_JAR" "$BENCH/PostsBench.java" "$BENCH"/posts/*.java "$BENCH/BurstBench.java" "$BENCH"/burst/*.java

# ---- run
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
  PLOT="$STATE/burst.png"
else
  [[ -n "$OUT" ]] || OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-burst.md"
  PLOT="${OUT%.md}.png"
fi
budget=$(( WAIT_IDLE + WARMUP_MAX + 2 * DRAIN_TIMEOUT + 600 + DEADLINE + STEADY_DURATION + STEADY_AHEAD + 600 ))
[[ "$LEAD" == auto ]] || budget=$(( budget + LEAD ))
timeout "$budget" java -Xms64m -Xmx768m -XX:+UseSerialGC -Djava.awt.headless=true -cp "$STATE/bench-classes:$JACKSON:$PLOT_JAR" BurstBench \
  --state="$STATE" --src="$SRC" --bench-dir="$BENCH" --gateway-port="$GATEWAY_PORT" --postgres-port="$POSTGRES_PORT" \
  --posts="$POSTS" --lead="$LEAD" --deadline="$DEADLINE" --connections="$CONNECTIONS" --rate="$RATE" --workspaces="$WORKSPACES" \
  --warmup="$WARMUP" --warmup-max="$WARMUP_MAX" --steady-rate="$STEADY_RATE" --steady-duration="$STEADY_DURATION" \
  --steady-ahead="$STEADY_AHEAD" --open-connections="$STEADY_CONNECTIONS" --drain-timeout="$DRAIN_TIMEOUT" --wait-idle="$WAIT_IDLE" \
  --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$(bench_machine)" \
  --quiet="${QUIET_REPORT:-}" --command="$COMMAND" --results="$OUT" --plot="$PLOT"
