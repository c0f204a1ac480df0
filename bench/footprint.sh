#!/usr/bin/env bash
# Footprint of the local suite (issue 37, item 3): for ./herald up on code that is already built, the time from start
# to ready, then the proportional set size (PSS, /proc/<pid>/smaps_rollup: shared pages divided among the processes
# that map them, so PostgreSQL's shared buffers count once) of every process of the suite, idle (--idle s after
# ready) and under a light load (--rate posts/s for --load s, SoakBench's open loop). Variants (--variant) run
# interleaved, each on a fresh suite, so the machine's load hits all alike. Writes
# bench/results/<UTC date-time>-footprint.md. See bench/README.md, section "Footprint".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"
COMMAND="bench/footprint.sh"
(( $# == 0 )) || COMMAND+="$(printf ' %q' "$@")"

usage() {
  cat <<'EOF'
Usage: bench/footprint.sh [options]

  --ref REF          measure this commit (default HEAD): exported with git archive into $BENCH_CACHE/<key> (default
                     ~/.cache/herald-bench) and built there once, as the other benchmarks do
  --worktree         measure the working tree as it is built (run ./mvnw -DskipTests package or ./herald up once
                     first: the suite is started with HERALD_SKIP_BUILD=1, so a build never counts as start time)
  --idle S           seconds after ready before the idle reading (default 60)
  --rate R           posts/s of the light load (default 20), open loop, one LinkedIn sandbox target each, webhooks on
  --load S           seconds of light load (default 60); a reading every 10 s, the judged one is the largest total
  --no-load          idle reading only
  --runs N           rounds (default 1); each round starts a fresh suite per variant, the order reversed every other
                     round (A B, B A, ...)
  --variant 'NAME|VAR=value|VAR=value ...'
                     a variant: its name, then environment for ./herald up (e.g.
                     'small-heaps|HERALD_SERVICE_JVM_OPTIONS=-Xmx128m'); repeatable; without any, one variant
                     'as built' with the default settings
  --out FILE         results file (default bench/results/<UTC date-time>-footprint.md); --no-results writes none
  --keep-state       keep each run's state directory (logs)
  -h, --help

Ports as for the other benchmarks (gateway $BENCH_GATEWAY_PORT 18080, PostgreSQL 15329, Kafka 19192/19193, webhook
receiver 18390); the services' ports 8181-8186 are fixed, so it refuses to run next to another suite.
EOF
}

REF=HEAD
WORKTREE=0
IDLE=60
RATE=20
LOAD=60
RUNS=1
VARIANTS=()
OUT=""
NO_RESULTS=0
KEEP_STATE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref) REF="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --idle) IDLE="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --load) LOAD="$2"; shift 2 ;;
    --no-load) LOAD=0; shift ;;
    --runs) RUNS="$2"; shift 2 ;;
    --variant) VARIANTS+=("$2"); shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --no-results) NO_RESULTS=1; shift ;;
    --keep-state) KEEP_STATE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$IDLE" "$LOAD" "$RUNS"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "expected a whole number, got '$n' (see --help)" >&2; exit 2; }
done
(( LOAD == 0 || LOAD >= 40 )) || { echo "--load is at least 40 s (four readings), or --no-load" >&2; exit 2; }
(( ${#VARIANTS[@]} > 0 )) || VARIANTS=("as built")

GATEWAY_PORT="${BENCH_GATEWAY_PORT:-18080}"
POSTGRES_PORT="${BENCH_POSTGRES_PORT:-15329}"
KAFKA_PORT="${BENCH_KAFKA_PORT:-19192}"
KAFKA_CONTROLLER_PORT="${BENCH_KAFKA_CONTROLLER_PORT:-19193}"
RECEIVER_PORT="${BENCH_RECEIVER_PORT:-18390}"
CACHE="${BENCH_CACHE:-$HOME/.cache/herald-bench}"

bench_require_java
BENCH_PORT_VARIABLES_TAIL="BENCH_KAFKA_CONTROLLER_PORT or BENCH_RECEIVER_PORT"
bench_refuse_busy_ports "$GATEWAY_PORT" "$POSTGRES_PORT" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$RECEIVER_PORT"
bench_prepare_source
if [[ "$WORKTREE" == 1 ]]; then
  for module in api-gateway profiles-service accounts-service posts-service delivery-worker webhooks-service usage-service mcp-server; do
    [[ -f "$ROOT/$module/target/quarkus-app/quarkus-run.jar" ]] || {
      echo "$module is not built; build first (./mvnw -B -q -DskipTests package): start time must not include a build" >&2; exit 1; }
  done
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/herald-footprint.XXXXXX")"
STATE=""
cleanup() {
  local rc=$?
  stop_suite
  if [[ "$rc" != 0 || "$KEEP_STATE" == 1 ]]; then
    echo "state and logs kept in $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
stop_suite() {
  if [[ -n "$STATE" ]]; then
    (cd "$SRC" && HERALD_STATE_DIR="$STATE" HERALD_SKIP_BUILD=1 ./herald down) >/dev/null 2>&1 || echo "./herald down failed; state in $STATE" >&2
    STATE=""
  fi
}
if (( LOAD > 0 )); then
  bench_compile "$WORK/classes" "" "$BENCH/PostsBench.java" "$BENCH"/posts/*.java "$BENCH/SoakBench.java"
fi

# ---- readings

# pss_snapshot STATE: one line per component, "name processes pss_kB rss_kB pss_anon_kB pss_file_kB pss_shmem_kB threads".
# PostgreSQL is the postmaster and every child of it (backends, checkpointer, ...), one line.
pss_snapshot() {
  local state="$1" name pid pids
  {
    [[ -f "$state/herald.pid" ]] && echo "supervisor $(cat "$state/herald.pid")"
    for f in "$state"/pids/*.pid; do
      name="$(basename "$f" .pid)"
      pid="$(cat "$f" 2>/dev/null || true)"
      [[ -n "$pid" ]] || continue
      if [[ "$name" == postgres ]]; then
        pids="$pid $(ps --ppid "$pid" -o pid= 2>/dev/null | tr '\n' ' ')"
        echo "postgresql $pids"
      else
        echo "$name $pid"
      fi
    done
  } | while read -r name pids; do
    local n=0 pss=0 rss=0 anon=0 file=0 shmem=0 threads=0 p line
    for p in $pids; do
      line="$(awk '/^Rss:/ {r=$2} /^Pss:/ {p=$2} /^Pss_Anon:/ {a=$2} /^Pss_File:/ {f=$2} /^Pss_Shmem:/ {s=$2}
                   END {if (p != "") print p+0, r+0, a+0, f+0, s+0}' "/proc/$p/smaps_rollup" 2>/dev/null || true)"
      [[ -n "$line" ]] || continue
      read -r a b c d e <<<"$line"
      n=$((n + 1)); pss=$((pss + a)); rss=$((rss + b)); anon=$((anon + c)); file=$((file + d)); shmem=$((shmem + e))
      threads=$((threads + $(awk '/^Threads:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)))
    done
    (( n > 0 )) && echo "$name $n $pss $rss $anon $file $shmem $threads"
  done
}

# cpu_ticks: "busy total" jiffies of the whole machine since boot (/proc/stat).
cpu_ticks() { awk '/^cpu / {busy=$2+$3+$4+$7+$8+$9; print busy, busy+$5+$6}' /proc/stat; }

# suite_ticks STATE: CPU jiffies of the suite's processes so far, reaped children included.
suite_ticks() {
  local state="$1" f pid total=0
  for f in "$state/herald.pid" "$state"/pids/*.pid; do
    pid="$(cat "$f" 2>/dev/null || true)"
    [[ -n "$pid" ]] || continue
    for p in "$pid" $(ps --ppid "$pid" -o pid= 2>/dev/null || true); do
      total=$((total + $(awk '{print $14+$15+$16+$17}' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
  done
  echo "$total"
}

# ---- one run: a fresh suite for a variant; appends to $WORK/runs.tsv and writes $WORK/<run>.{idle,load}
run_one() {
  local run="$1" spec="$2" variant env=() part
  IFS='|' read -r -a parts <<<"$spec"
  variant="${parts[0]}"
  for part in "${parts[@]:1}"; do env+=("$part"); done
  STATE="$WORK/$run.state"
  mkdir -p "$STATE"
  local load1 others t0 t1 busy0 total0 busy1 total1 suite other_share ready cpu
  load1="$(cut -d' ' -f1 /proc/loadavg)"
  others="$(bench_other_processes | wc -l | tr -d ' ')"
  say "run $run: $variant (load average $load1, $others other java/mvn/postgres processes)"
  read -r busy0 total0 < <(cpu_ticks)
  t0="$(date +%s.%N)"
  if ! env -u HERALD_DATABASE_URL -u KAFKA_BOOTSTRAP_SERVERS -u HERALD_DEMO_TEST_KEY -u HERALD_DEMO_LIVE_KEY -u HERALD_ADMIN_TOKEN \
      -u HERALD_KAFKA_LIBS -u HERALD_USAGE_PLAN_OVERRIDES -u HERALD_SERVICE_JVM_OPTIONS \
      HERALD_STATE_DIR="$STATE" HERALD_PORT="$GATEWAY_PORT" HERALD_POSTGRES_PORT="$POSTGRES_PORT" HERALD_KAFKA_PORT="$KAFKA_PORT" \
      HERALD_KAFKA_CONTROLLER_PORT="$KAFKA_CONTROLLER_PORT" HERALD_SKIP_BUILD=1 "${env[@]}" \
      timeout 600 bash -c 'cd "$1" && ./herald up --detach' _ "$SRC" > "$WORK/$run.up.out" 2>&1; then
    # A start that fails (on a loaded machine a service can time out on its first database connection) is a row of
    # the results, not the end of the other runs.
    local why
    why="$(grep -m1 '^Herald did not start:' "$WORK/$run.up.out" | cut -c1-200 || true)"
    say "  the start failed: ${why:-see $WORK/$run.up.out}"
    printf '%s\t%s\t%s\t-\t%s\t-\t-\t-\n' "$run" "$variant" "failed: ${why:-see the log}" "$load1" >> "$WORK/runs.tsv"
    stop_suite
    return 0
  fi
  t1="$(date +%s.%N)"
  read -r busy1 total1 < <(cpu_ticks)
  suite="$(suite_ticks "$STATE")"
  cpu="$(awk -v s="$suite" -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" 'BEGIN { printf "%.0f", s / hz }')"
  # Other processes' share of the machine during the start: busy time not spent by the suite (nor its start script).
  other_share="$(awk -v b=$((busy1 - busy0)) -v t=$((total1 - total0)) -v s="$suite" 'BEGIN { o = b - s; if (o < 0) o = 0; printf "%.0f", (t > 0 ? 100 * o / t : 0) }')"
  ready="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  say "  ready after $ready s, $cpu CPU s (other processes ${other_share}% of the machine meanwhile); idle reading in $IDLE s"
  sleep "$IDLE"
  pss_snapshot "$STATE" > "$WORK/$run.idle"
  say "  idle: $(awk '{s += $3} END {printf "%.0f MiB PSS", s / 1024}' "$WORK/$run.idle")"
  local peak="-"
  if (( LOAD > 0 )); then
    : > "$WORK/$run.load"
    local i=0
    # A load program that fails (e.g. a 503 during its setup on an overloaded machine) leaves the readings it got;
    # the run's row says so, and the other runs go on.
    set +e
    timeout $((LOAD + 600)) java -Xms32m -Xmx256m -XX:+UseSerialGC -cp "$WORK/classes" SoakBench \
      --state="$STATE" --src="$SRC" --gateway-port="$GATEWAY_PORT" --postgres-port="$POSTGRES_PORT" --receiver-port="$RECEIVER_PORT" \
      --rate="$RATE" --rate-note="bench/footprint.sh's light load" --workspaces=auto --duration="$LOAD" --sample=10 --warmup=0 \
      --ramp=0 --window=20 --gc-every=0 --force-gc=false --connections=8 --webhooks=true --drain-timeout=60 --wait-idle=0 \
      --clk-tck="$(getconf CLK_TCK 2>/dev/null || echo 100)" --source="$SOURCE" --machine="$(bench_machine)" \
      --command="$COMMAND" --results="$WORK/$run.soak.md" 2>&1 | tee "$WORK/$run.soak.log" | while IFS= read -r line; do
        if [[ "$line" == *"t="*" s: offered "* ]]; then
          i=$((i + 1))
          pss_snapshot "$STATE" | sed "s/^/$i /" >> "$WORK/$run.load"
        fi
      done
    local load_rc=("${PIPESTATUS[@]}")
    set -e
    if [[ "${load_rc[0]}" != 0 ]]; then
      say "  the light load failed (exit ${load_rc[0]}): $(grep -m1 -E 'Exception|answered' "$WORK/$run.soak.log" | cut -c1-160)"
    fi
    peak="$(awk '{s[$1] += $4} END {m = 0; for (k in s) if (s[k] > m) m = s[k]; printf "%.0f", m / 1024}' "$WORK/$run.load")"
    if [[ "${load_rc[0]}" != 0 ]]; then
      if [[ -s "$WORK/$run.load" ]]; then peak="load failed (largest reading before: $peak)"; else peak="load failed"; fi
    fi
    say "  under load: peak $peak MiB PSS ($(grep -c 's: offered' "$WORK/$run.soak.log" || true) readings); $(grep -m1 -o 'offered [0-9]*.*' "$WORK/$run.soak.log" | tail -1 | cut -c1-80)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$variant" "$ready" "$other_share" "$load1" \
    "$(awk '{s += $3} END {printf "%.0f", s / 1024}' "$WORK/$run.idle")" "$peak" "$cpu" >> "$WORK/runs.tsv"
  if [[ "$KEEP_STATE" == 1 ]]; then cp -r "$STATE/logs" "$WORK/$run.logs" 2>/dev/null || true; fi
  stop_suite
}

: > "$WORK/runs.tsv"
for ((round = 1; round <= RUNS; round++)); do
  order=("${VARIANTS[@]}")
  if (( round % 2 == 0 )); then
    order=()
    for ((k = ${#VARIANTS[@]} - 1; k >= 0; k--)); do order+=("${VARIANTS[$k]}"); done
  fi
  for spec in "${order[@]}"; do
    idx=0
    for ((k = 0; k < ${#VARIANTS[@]}; k++)); do [[ "${VARIANTS[$k]}" == "$spec" ]] && idx=$k; done
    run_one "r${round}v${idx}" "$spec"
  done
done

# ---- results
if [[ "$NO_RESULTS" == 1 ]]; then
  OUT=""
elif [[ -z "$OUT" ]]; then
  OUT="$BENCH/results/$(date -u +%Y-%m-%d-%H%M)-footprint.md"
fi
report() {
  echo "# Footprint of the local suite ($(date -u +%Y-%m-%d\ %H:%M) UTC)"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| code | $SOURCE |"
  echo "| machine | $(bench_machine) |"
  echo "| command | \`$COMMAND\` |"
  echo "| readings | PSS (\`/proc/<pid>/smaps_rollup\`) of the supervisor JVM, every service JVM, the Kafka broker and PostgreSQL (postmaster and all its processes, so its shared memory counts once); idle: $IDLE s after ready; light load: $( ((LOAD > 0)) && echo "$RATE posts/s for $LOAD s (SoakBench's open loop, one LinkedIn sandbox target each, webhooks on, no forced GC), a reading every 10 s, the largest total" || echo "none (--no-load)") |"
  echo "| start | \`./herald up --detach\` on a fresh state directory (initdb, migrations) to its return, with \`HERALD_SKIP_BUILD=1\` |"
  echo
  echo "Memory barely depends on what else runs on the machine; **time to ready does**: each run gives the other"
  echo "processes' share of the machine during its start, and a start above 10% is marked \`*\` (not a result)."
  echo "CPU to ready (the suite's processes' CPU time from start to ready, reaped children included) moves much less"
  echo "with the machine's load than the wall time: compare variants by it when the machine was busy."
  echo
  echo "## Runs (in the order they ran)"
  echo
  echo "| run | variant | ready (s) | CPU to ready (s) | other processes during start | load average before | PSS idle (MiB) | PSS under load, peak (MiB) |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' '{ mark = ($4 > 10) ? " *" : ""; printf "| %s | %s | %s%s | %s | %s | %s | %s | %s |\n", $1, $2, $3, mark, $8, ($4 == "-" ? "-" : $4 "%"), $5, $6, $7 }' "$WORK/runs.tsv"
  echo
  local k spec variant
  for ((k = 0; k < ${#VARIANTS[@]}; k++)); do
    spec="${VARIANTS[$k]}"
    variant="${spec%%|*}"
    echo "## $variant"
    echo
    [[ "$spec" == *"|"* ]] && echo "Environment: \`${spec#*|}\`" && echo
    if ! ls "$WORK"/r*v"$k".idle >/dev/null 2>&1; then
      echo "No run of this variant got as far as the idle reading."
      echo
      continue
    fi
    echo "Mean over its runs, MiB (threads: count). Under load: the reading with the largest total."
    echo
    echo "| process | PSS idle | anon | file | shmem | RSS idle | threads | PSS under load | RSS under load |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    # idle means per component
    cat "$WORK"/r*v"$k".idle > "$WORK/v$k.idle.all" 2>/dev/null || true
    : > "$WORK/v$k.load.peak"
    for f in "$WORK"/r*v"$k".load; do
      [[ -f "$f" ]] || continue
      best="$(awk '{s[$1] += $4} END {m = -1; for (k in s) if (s[k] > m) { m = s[k]; b = k } print b}' "$f")"
      awk -v b="$best" '$1 == b { $1 = ""; print substr($0, 2) }' "$f" >> "$WORK/v$k.load.peak"
    done
    # One row per process (sorted by name), then the total of the rows' columns; plain awk (no gawk extensions).
    awk -v runs="$(ls "$WORK"/r*v"$k".idle | wc -l)" '
      FNR == 1 { file++ }
      file == 1 { pss[$1] += $3; anon[$1] += $5; fil[$1] += $6; shm[$1] += $7; rss[$1] += $4; thr[$1] += $8; names[$1] = 1 }
      file == 2 { lpss[$1] += $3; lrss[$1] += $4; lruns[$1]++; names[$1] = 1 }
      END {
        for (n in names) {
          printf "%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%s\n", n, pss[n] / runs / 1024, anon[n] / runs / 1024, fil[n] / runs / 1024,
            shm[n] / runs / 1024, rss[n] / runs / 1024, thr[n] / runs, lruns[n] ? sprintf("%.0f", lpss[n] / lruns[n] / 1024) : "-",
            lruns[n] ? sprintf("%.0f", lrss[n] / lruns[n] / 1024) : "-"
        }
      }' "$WORK/v$k.idle.all" "$WORK/v$k.load.peak" | sort > "$WORK/v$k.rows"
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$WORK/v$k.rows"
    awk -F'\t' '{ p += $2; r += $6; if ($8 != "-") { l += $8; lr += $9 } }
      END { printf "| **total** | **%.0f** | | | | %.0f | | **%s** | %s |\n", p, r, l ? sprintf("%.0f", l) : "-", lr ? sprintf("%.0f", lr) : "-" }' "$WORK/v$k.rows"
    echo
  done
  echo "Targets (issue 37, item 3): total PSS idle <= 1,300 MB, under the light load <= 1,700 MB, ready <= 15 s after start."
  echo "RSS counts shared pages once per process (PostgreSQL's shared buffers once per backend), so its total overstates."
  echo
  echo "## Reproduce"
  echo
  echo '```bash'
  echo "$COMMAND"
  echo '```'
}
if [[ -n "$OUT" ]]; then
  report > "$OUT"
  say "results in $OUT"
else
  report
fi
