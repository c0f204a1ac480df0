#!/usr/bin/env bash
# Reliability evidence regenerated at HEAD (issue 34, item 5): runs, in order,
#   1. the long fault run and 2. a rolling restart of every service (bench/faults.sh: CrashRecoveryIT, SIGKILL of each
#      component, the Kafka broker and PostgreSQL, with fsync and synchronous_commit on, --rounds times, under the
#      steady load; then RollingRestartIT);
#   3. the contract fuzz at --fuzz requests per operation (bench/fuzz.sh);
#   4. the pipeline's sustained capacity, from a short bench/posts-throughput.sh run (or a results file of today);
#   5. a soak (bench/soak.sh) at half that capacity for --soak-minutes judged minutes,
# then replaces the generated tables of docs/reliability.md (between <!-- reliability:begin NAME --> and
# <!-- reliability:end NAME -->) with the figures those scripts printed, with the commit, date and machine. The prose
# around the tables is written by hand. See bench/README.md, "Reliability evidence".
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"
COMMAND="bench/reliability.sh"
(( $# == 0 )) || COMMAND+="$(printf ' %q' "$@")"

usage() {
  cat <<'EOF'
Usage: bench/reliability.sh [options]

  --rounds N           crash rounds of the fault run (default 3)
  --fuzz N             contract-fuzz requests per operation (default 200)
  --capacity WHERE     the sustained capacity the soak runs at half of: measure (default: a short
                       bench/posts-throughput.sh run, its sustained phase), today (the newest
                       bench/results/<today>-*-posts.md), or a posts results file
  --capacity-seconds S seconds of each phase of that posts run (default 60; its warm-up comes first)
  --soak-minutes M     judged minutes of the soak, after its warm-up (default 60)
  --soak-warmup S      the soak's warm-up, not judged (default 780, soak.sh's)
  --phases LIST        which phases run, comma-separated, of faults,fuzz,capacity,soak (default all); a phase not
                       run keeps its table as it is
  --docs FILE          the file whose tables are replaced (default docs/reliability.md)
  --worktree           posts and soak runs measure the working tree as faults.sh packaged it (HERALD_SKIP_BUILD=1)
                       instead of HEAD built apart in the bench cache; allows uncommitted changes outside bench/ and docs/
  --wait-quiet S       before the first phase, wait up to S s (default 0) for a quiet machine (load average under 0.8,
                       no other java, mvn or postgres process)
  --smoke              the smallest scale, to check the plumbing (minutes, not a result): --rounds 1 --fuzz 3
                       --capacity-seconds 10 --soak-minutes 2 --soak-warmup 60 --worktree, shorter warm-ups and waits,
                       results files and the tables written under a temporary directory (the tables into a copy of
                       docs/reliability.md), never into the repository. Options after --smoke override it.
  -h, --help

Time with the defaults: the build (a few minutes), the fault run (about 20 minutes for 3 rounds and the rolling
restart), the fuzz (about 5 minutes), the capacity run (about 10 minutes, plus a build of HEAD into the bench cache the
first time), the soak (13 minutes of warm-up and 60 judged, plus the suite's start and setup): about two hours.
The posts and soak runs start a suite on fixed ports (gateway 18080, services 8181-8187): no other suite may run.
With BENCH_SUITE_LOCK=FILE they take flock FILE first (the faults and fuzz run on free ports and take no lock).
EOF
}

ROUNDS=3
FUZZ=200
CAPACITY=measure
CAPACITY_SECONDS=60
SOAK_MINUTES=60
SOAK_WARMUP=780
PHASES=faults,fuzz,capacity,soak
DOCS="$ROOT/docs/reliability.md"
WORKTREE=0
WAIT_QUIET=0
SMOKE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    --fuzz) FUZZ="$2"; shift 2 ;;
    --capacity) CAPACITY="$2"; shift 2 ;;
    --capacity-seconds) CAPACITY_SECONDS="$2"; shift 2 ;;
    --soak-minutes) SOAK_MINUTES="$2"; shift 2 ;;
    --soak-warmup) SOAK_WARMUP="$2"; shift 2 ;;
    --phases) PHASES="$2"; shift 2 ;;
    --docs) DOCS="$2"; shift 2 ;;
    --worktree) WORKTREE=1; shift ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --smoke)
      SMOKE=1; ROUNDS=1; FUZZ=3; CAPACITY_SECONDS=10; SOAK_MINUTES=2; SOAK_WARMUP=60; WORKTREE=1
      shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$ROUNDS" "$FUZZ" "$CAPACITY_SECONDS" "$SOAK_MINUTES" "$SOAK_WARMUP" "$WAIT_QUIET"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "expected a whole number, got '$n' (see --help)" >&2; exit 2; }
done
(( ROUNDS >= 1 && FUZZ >= 1 && SOAK_MINUTES >= 1 )) || { echo "--rounds, --fuzz and --soak-minutes are at least 1" >&2; exit 2; }
[[ "$PHASES" =~ ^(faults|fuzz|capacity|soak)(,(faults|fuzz|capacity|soak))*$ ]] \
  || { echo "--phases is a comma-separated list of faults, fuzz, capacity, soak" >&2; exit 2; }
runs() { [[ ",$PHASES," == *",$1,"* ]]; }

cd "$ROOT"
COMMIT="$(git rev-parse --short=12 HEAD)"
if [[ "$WORKTREE" == 0 ]]; then
  dirty="$(git status --porcelain --untracked-files=normal -- . ':!bench' ':!docs' | wc -l | tr -d ' ')"
  if [[ "$dirty" != 0 ]]; then
    echo "Refusing to run: $dirty changed or untracked paths outside bench/ and docs/, so the figures would not be" >&2
    echo "HEAD's. Commit them, or pass --worktree to measure the working tree." >&2
    exit 1
  fi
  CODE="commit \`$COMMIT\`"
else
  CODE="working tree of \`$COMMIT\` with $(git status --porcelain --untracked-files=normal -- . ':!bench' ':!docs' | wc -l | tr -d ' ') changed or untracked paths outside bench/ and docs/"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/herald-reliability.XXXXXX")"
if [[ "$SMOKE" == 1 ]]; then
  RESULTS="$WORK"
  if [[ "$DOCS" == "$ROOT/docs/reliability.md" ]]; then
    cp "$DOCS" "$WORK/reliability.md"
    DOCS="$WORK/reliability.md"
  fi
else
  RESULTS="$BENCH/results"
fi
[[ -f "$DOCS" ]] || { echo "no such file: $DOCS" >&2; exit 2; }
STAMP="$(date -u +%Y-%m-%d-%H%M)"
say "reliability run of $CODE; logs in $WORK, tables into $DOCS"

bench_wait_quiet "$WAIT_QUIET"
MACHINE="$(bench_machine)"
RUN_LINE="$CODE, $(date -u '+%Y-%m-%d %H:%M') UTC, $MACHINE; 1-minute load average $(cut -d' ' -f1 /proc/loadavg) when it started${QUIET_REPORT:+ (${QUIET_REPORT%; })}; \`$COMMAND\`"
FAILED=()

# fixed_ports COMMAND...: runs a phase that starts a suite on the fixed ports, under flock BENCH_SUITE_LOCK when set.
fixed_ports() {
  if [[ -n "${BENCH_SUITE_LOCK:-}" ]]; then
    flock "$BENCH_SUITE_LOCK" "$@"
  else
    "$@"
  fi
}

# replace_block NAME FILE: puts FILE's lines between <!-- reliability:begin NAME --> and <!-- reliability:end NAME -->
# in DOCS, instead of what was there.
replace_block() {
  local name="$1" content="$2"
  grep -q "^<!-- reliability:begin $name -->\$" "$DOCS" && grep -q "^<!-- reliability:end $name -->\$" "$DOCS" \
    || { echo "$DOCS has no <!-- reliability:begin/end $name --> markers" >&2; return 1; }
  awk -v name="$name" -v content="$content" '
    $0 == "<!-- reliability:begin " name " -->" { print; while ((getline line < content) > 0) print line; skip = 1; next }
    $0 == "<!-- reliability:end " name " -->" { skip = 0 }
    !skip { print }' "$DOCS" > "$WORK/docs.new"
  cat "$WORK/docs.new" > "$DOCS"
}

# ---- 1 and 2: the fault run and the rolling restart (one Maven run; both tests start the same suite)
# A test's result line, e.g. "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 906.1 s -- in ...IT".
test_result() {
  local line
  line="$(grep -E "Tests run: .* in dev\.herald\.system\.$1\$" "$WORK/faults.log" | tail -1 || true)"
  if [[ -z "$line" ]]; then
    echo "did not run"
  elif [[ "$line" =~ Failures:\ 0,\ Errors:\ 0,\ Skipped:\ 0,\ Time\ elapsed:\ ([0-9.]+)\ s ]]; then
    echo "passed, ${BASH_REMATCH[1]%.*} s"
  else
    echo "**FAILED**"
  fi
}

# fault_row TEST FAULTS LINE: a table row from the summary the test printed (SteadyPostLoad.Summary).
fault_row() {
  local test="$1" faults="$2" line="$3" result posts calls webhooks retries drift durable
  result="$(test_result "$test")"
  if [[ -z "$line" ]]; then
    echo "| $test | $faults | - | - | - | - | - | - | - | - | - | $result: no figures printed |"
    return
  fi
  posts="$(sed -nE 's/.*: ([0-9]+) posts accepted and published once each.*/\1/p' <<<"$line")"
  calls="$(sed -nE 's/.*\(([0-9]+) sandbox publish calls.*/\1/p' <<<"$line")"
  webhooks="$(sed -nE 's/.* ([0-9]+) webhook requests;.*/\1/p' <<<"$line")"
  drift="$(sed -nE 's/.*meter drift ([0-9]+) \(.*api_requests within the ([0-9]+) accepted and ([0-9]+) sent\).*/\1 (api_requests: \2 accepted, \3 sent)/p' <<<"$line")"
  retries="$(sed -nE 's/.*client retries by cause \{(.*)\}.*/\1/p' <<<"$line")"
  durable="$(sed -nE 's/.*PostgreSQL (fsync=[a-z]+ synchronous_commit=[a-z]+)\).*/\1/p' <<<"$line")"
  # Both tests run on one suite, whose PostgreSQL settings CrashRecoveryIT reads and prints.
  [[ -n "$durable" ]] || durable="$(sed -nE 's/.*PostgreSQL (fsync=[a-z]+ synchronous_commit=[a-z]+)\).*/\1/p' <<<"${crash_line:-}")"
  # A passed test checked: none lost, none published twice, none stuck, the meters exact.
  if [[ "$result" == passed* ]]; then
    echo "| $test | $faults | ${posts:--} | 0 | 0 | 0 | ${calls:--} | ${webhooks:--} | ${drift:--} | ${retries:-none} | ${durable:--} | $result |"
  else
    echo "| $test | $faults | ${posts:--} | see log | see log | see log | ${calls:--} | ${webhooks:--} | - | ${retries:-none} | ${durable:--} | $result |"
  fi
}

if runs faults; then
  say "1-2. the fault run: $ROUNDS round(s) of SIGKILLs, then the rolling restart (bench/faults.sh)"
  status=0
  "$BENCH/faults.sh" --rounds "$ROUNDS" --log "$WORK/faults.log" || status=$?
  crash_line="$(grep -E 'supervised crashes of' "$WORK/faults.log" | tail -1 || true)"
  rolling_line="$(grep -E 'rolling restart of' "$WORK/faults.log" | tail -1 || true)"
  rounds_text="$ROUNDS round$([[ "$ROUNDS" == 1 ]] || echo s)"
  {
    echo "Generated by \`bench/reliability.sh\`: $RUN_LINE."
    echo
    echo "| test | faults injected | posts accepted | lost | published twice | stuck | sandbox publish calls | webhook requests | meter drift | client retries | PostgreSQL | result |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    fault_row CrashRecoveryIT "$(( ROUNDS * 9 )) × SIGKILL: the Kafka broker, PostgreSQL, the gateway and all six services, in turn, $rounds_text" "$crash_line"
    fault_row RollingRestartIT "7 × SIGTERM and start: the gateway and all six services" "$rolling_line"
    resumed="$(sed -nE 's/.*; ([0-9]+) targets attempted again.*/\1/p' <<<"$crash_line")"
    [[ -z "$resumed" ]] || { echo; echo "In the crash run, $resumed targets had their provider call cut off by a crash and were attempted again."; }
  } > "$WORK/faults.md"
  replace_block faults "$WORK/faults.md"
  [[ "$status" == 0 ]] || FAILED+=("faults (log: $WORK/faults.log)")
fi

# ---- 3: the contract fuzz (its own suite; the services as faults.sh packaged them, when it ran)
if runs fuzz; then
  say "3. the contract fuzz: $FUZZ requests per operation (bench/fuzz.sh)"
  status=0
  build_flag=()
  runs faults && build_flag=(--no-build)
  "$BENCH/fuzz.sh" "${build_flag[@]}" "$FUZZ" > "$WORK/fuzz.out" 2>&1 || status=$?
  head_line="$(grep -m1 -E '^Contract fuzz: seed' "$WORK/fuzz.out" || true)"
  total_line="$(grep -m1 -E '^total: [0-9]+ requests' "$WORK/fuzz.out" || true)"
  {
    echo "Generated by \`bench/reliability.sh\`: $RUN_LINE."
    echo
    echo "| requests per operation | operations | requests | violations | known open findings met | seed | time | result |"
    echo "|---|---|---|---|---|---|---|---|"
    if [[ "$head_line" =~ seed\ ([0-9-]+),\ ([0-9]+)\ requests\ per\ operation,\ ([0-9]+)\ operations,\ ([0-9]+)\ s ]] \
        && [[ "$total_line" =~ total:\ ([0-9]+)\ requests,\ ([0-9]+)\ violations,\ ([0-9]+)\ answers ]]; then
      read -r seed per ops secs <<<"$(sed -nE 's/^Contract fuzz: seed ([0-9-]+), ([0-9]+) requests per operation, ([0-9]+) operations, ([0-9]+) s.*/\1 \2 \3 \4/p' <<<"$head_line")"
      read -r requests violations known <<<"$(sed -nE 's/^total: ([0-9]+) requests, ([0-9]+) violations, ([0-9]+) answers.*/\1 \2 \3/p' <<<"$total_line")"
      echo "| $per | $ops | $requests | $violations | $known | $seed | $secs s | $([[ "$status" == 0 ]] && echo passed || echo '**FAILED**') |"
    else
      echo "| $FUZZ | - | - | - | - | - | - | **FAILED** before fuzzing (no report) |"
    fi
  } > "$WORK/fuzz.md"
  replace_block fuzz "$WORK/fuzz.md"
  [[ "$status" == 0 ]] || FAILED+=("fuzz (output: $WORK/fuzz.out)")
fi

# ---- 4: the sustained capacity, for 5: the soak at half of it
# sustained FILE: "ACCEPTED PUBLISHED" from a posts results file's "(sustained phase) | A / P |" line.
sustained() {
  sed -nE 's/^\| end to end: accepted \/ published posts\/s .*\(sustained phase\) \| ([0-9.]+) \/ ([0-9.]+) \|.*/\1 \2/p' "$1" | head -1
}

suite_env=()
[[ "$WORKTREE" == 0 ]] || suite_env=(HERALD_SKIP_BUILD=1)
where=(--ref HEAD)
[[ "$WORKTREE" == 0 ]] || where=(--worktree)
CAPACITY_FILE=""
if runs capacity || runs soak; then
  case "$CAPACITY" in
    measure)
      if runs capacity; then
        CAPACITY_FILE="$RESULTS/$STAMP-posts.md"
        say "4. the sustained capacity: bench/posts-throughput.sh, ${CAPACITY_SECONDS} s phases, results in $CAPACITY_FILE"
        capacity_options=(--connections 16 --open-rate 0 --duration "$CAPACITY_SECONDS" --out "$CAPACITY_FILE")
        [[ "$SMOKE" == 0 ]] || capacity_options+=(--warmup 30 --warmup-max 30 --wait-idle 5 --drain-timeout 60)
        status=0
        fixed_ports env "${suite_env[@]}" "$BENCH/posts-throughput.sh" "${where[@]}" "${capacity_options[@]}" \
          > "$WORK/capacity.out" 2>&1 || status=$?
        [[ "$status" == 0 ]] || FAILED+=("capacity (output: $WORK/capacity.out)")
      fi ;;
    today)
      CAPACITY_FILE="$(ls -1 "$BENCH/results/$(date -u +%Y-%m-%d)"-*-posts.md 2>/dev/null | tail -1 || true)"
      [[ -n "$CAPACITY_FILE" ]] || { echo "no posts results file of today in bench/results" >&2; FAILED+=("capacity (none of today)"); } ;;
    *) CAPACITY_FILE="$CAPACITY" ;;
  esac
fi

if runs soak; then
  read -r accepted published <<<"$( [[ -f "$CAPACITY_FILE" ]] && sustained "$CAPACITY_FILE" || true)"
  capacity_text="${CAPACITY_FILE#"$ROOT/"}"
  {
    echo "Generated by \`bench/reliability.sh\`: $RUN_LINE."
    echo
    if [[ -z "${accepted:-}" ]] || ! awk -v a="$accepted" -v p="$published" 'BEGIN { exit !(a > 0 && p > 0) }'; then
      echo "**Not run:** no sustained capacity (${capacity_text:-no posts results file}; see $WORK)."
      FAILED+=("soak (no capacity)")
    else
      capacity="$(awk -v a="$accepted" -v p="$published" 'BEGIN { print (a < p ? a : p) }')"
      rate="$(awk -v c="$capacity" 'BEGIN { printf "%.1f", c / 2 }')"
      soak_file="$RESULTS/$STAMP-soak.md"
      # (to stderr: this block's stdout is the table)
      say "5. the soak: $rate posts/s (half of $capacity) for $SOAK_MINUTES judged minutes after ${SOAK_WARMUP} s of warm-up" >&2
      soak_options=(--rate "$rate" --warmup "$SOAK_WARMUP" --duration "$(( SOAK_WARMUP + SOAK_MINUTES * 60 ))" --out "$soak_file")
      [[ "$SMOKE" == 0 ]] || soak_options+=(--sample 10 --ramp 10 --window 30 --gc-every 0 --wait-idle 5 --drain-timeout 60)
      status=0
      fixed_ports env "${suite_env[@]}" "$BENCH/soak.sh" "${where[@]}" "${soak_options[@]}" > "$WORK/soak.out" 2>&1 || status=$?
      verdict="$(sed -nE 's/^\*\*Verdict: ([A-Z]+)\*\*.*/\1/p' "$soak_file" 2>/dev/null | head -1)"
      totals="$(sed -nE 's/^\| offered \/ accepted \(202\) \/ dropped \(late\) \| ([0-9]+) \/ ([0-9]+) \/ ([0-9]+) \|.*/\1 \2 \3/p' "$soak_file" 2>/dev/null | head -1)"
      lost="$(sed -nE 's/^\| lost \(accepted, not final after the drain\) \| ([0-9]+) \|.*/\1/p' "$soak_file" 2>/dev/null | head -1)"
      unannounced="$(sed -nE 's/^\| final posts without a webhook \| ([0-9]+) \|.*/\1/p' "$soak_file" 2>/dev/null | head -1)"
      read -r offered soak_accepted dropped <<<"${totals:-- - -}"
      echo "| rate offered | capacity it is half of | judged | posts offered / accepted / dropped | lost | final posts without a webhook | verdict | results |"
      echo "|---|---|---|---|---|---|---|---|"
      echo "| $rate posts/s | $capacity posts/s (sustained phase, accepted $accepted / published $published: \`${capacity_text}\`) | $SOAK_MINUTES min after ${SOAK_WARMUP} s of warm-up | $offered / $soak_accepted / $dropped | ${lost:--} | ${unannounced:--} | ${verdict:-**no verdict**} | \`${soak_file#"$ROOT/"}\` |"
      [[ "$status" == 0 && "$verdict" == PASS ]] || FAILED+=("soak (output: $WORK/soak.out)")
    fi
  } > "$WORK/soak.md"
  replace_block soak "$WORK/soak.md"
fi

if (( ${#FAILED[@]} > 0 )); then
  say "FAILED: ${FAILED[*]}; tables written into $DOCS"
  exit 1
fi
say "every phase passed; tables written into $DOCS (logs in $WORK)"
