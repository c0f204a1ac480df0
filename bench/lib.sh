# Shared by the benchmark scripts (sourced, not run): picking and building the code to measure, refusing to run
# next to another suite, starting the suite with ./herald up --detach in a state directory of its own, and
# stopping it on every exit. See bench/README.md.
#
# The caller sets BENCH and ROOT, and the options these functions read: REF, WORKTREE, CACHE, KEEP_STATE.

say() { echo "[bench $(date +%H:%M:%S)] $*"; }

bench_require_java() {
  local tool
  for tool in java javac; do
    command -v "$tool" >/dev/null || { echo "$tool (JDK 17) is required on the PATH" >&2; exit 1; }
  done
}

# bench_compile OUT CLASSPATH SOURCE...: compiles bench programs (SOURCE, e.g. "$BENCH/Bench.java") with the classes
# they share (bench/support: /proc CPU sampling, load connections, PostgreSQL polls, setup calls) into OUT, for
# java -cp OUT. CLASSPATH (may be empty): jars the sources need.
bench_compile() {
  local out="$1" classpath="$2"
  shift 2
  mkdir -p "$out"
  javac -nowarn -d "$out" ${classpath:+-cp "$classpath"} "$BENCH"/support/*.java "$@"
}

# ---- refuse to run next to another suite: the service ports (and the gateway's management port, 9000) are fixed
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# bench_refuse_busy_ports PORT... ; the message names the variables that move the caller's own ports.
bench_refuse_busy_ports() {
  local port
  for port in 8181 8182 8183 8184 8185 8186 8187 9000 "$@"; do
    if listening "$port"; then
      echo "Refusing to run: something already listens on 127.0.0.1:$port." >&2
      if (( (port >= 8181 && port <= 8187) || port == 9000 )); then
        echo "Herald's service ports 8181-8187 and the gateway's management port 9000 are fixed, so only one suite" >&2
        echo "can run at a time: stop the other suite (./herald down, with its HERALD_STATE_DIR) and run the" >&2
        echo "benchmark again." >&2
      else
        echo "Choose another port with BENCH_GATEWAY_PORT, BENCH_POSTGRES_PORT, BENCH_KAFKA_PORT," >&2
        echo "${BENCH_PORT_VARIABLES_TAIL:-BENCH_KAFKA_CONTROLLER_PORT or BENCH_RELAY_PORT}." >&2
      fi
      exit 1
    fi
  done
}

# ---- the code to measure: sets SRC (the tree to run) and SOURCE (how the results name it)
bench_prepare_source() {
  if [[ "$WORKTREE" == 1 ]]; then
    SRC="$ROOT"
    local dirty
    dirty="$(git -C "$ROOT" status --porcelain --untracked-files=normal -- . ':!bench' | wc -l | tr -d ' ')"
    SOURCE="working tree of $(git -C "$ROOT" rev-parse --short HEAD) with $dirty changed or untracked paths outside bench/"
  else
    local sha key
    sha="$(git -C "$ROOT" rev-parse --verify "$REF^{commit}")"
    # Builds are keyed by the commit's content outside bench/, so a commit that only touches the benchmark
    # (or its results) reuses the previous build.
    key="$(git -C "$ROOT" ls-tree -r "$sha" | grep -v $'\tbench/' | sha1sum | cut -c1-40)"
    SRC="$CACHE/$key"
    SOURCE="commit \`${sha:0:12}\` ($(git -C "$ROOT" log -1 --format=%s "$sha" | cut -c1-90))"
    if [[ ! -f "$SRC/.bench-built" ]]; then
      say "building $sha in $SRC (once per content outside bench/; a few minutes)"
      rm -rf "$SRC"
      mkdir -p "$SRC"
      git -C "$ROOT" archive "$sha" | tar -x -C "$SRC"
      # With the AppCDS archives, as ./herald builds (docs/local-runtime.md, "JVM settings").
      (cd "$SRC" && ./mvnw -B -q -DskipTests -Dquarkus.package.jar.appcds.enabled=true package) > "$SRC.build.log" 2>&1 || {
        echo "build of $sha failed; see $SRC.build.log" >&2; tail -30 "$SRC.build.log" >&2; exit 1; }
      touch "$SRC/.bench-built"
      # Keep the two newest builds (about 350 MB each).
      find "$CACHE" -mindepth 1 -maxdepth 1 -type d -regextype posix-extended -regex '.*/[0-9a-f]{40}' -printf '%T@ %p\n' \
        | sort -rn | tail -n +3 | cut -d' ' -f2- | while read -r old; do rm -rf "$old" "$old.build.log"; done
    fi
    touch "$SRC"
  fi
}

# ---- the suite, in a state directory of its own, stopped on every exit
bench_cleanup() {
  local rc=$?
  if [[ "$STARTED" == 1 ]]; then
    say "stopping the suite"
    (cd "$SRC" && HERALD_STATE_DIR="$STATE" HERALD_SKIP_BUILD=1 ./herald down) >/dev/null 2>&1 || \
      echo "./herald down failed; state in $STATE" >&2
  fi
  if [[ "$rc" != 0 || "$KEEP_STATE" == 1 ]]; then
    echo "suite state and logs kept in $STATE" >&2
  else
    rm -rf "$STATE"
  fi
  exit "$rc"
}

# Creates STATE and installs the EXIT trap; call before bench_start_suite.
bench_make_state() {
  STATE="$(mktemp -d "${TMPDIR:-/tmp}/herald-bench.XXXXXX")"
  STARTED=0
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
  if [[ "$WORKTREE" == 1 && -f "$ROOT/.herald/build.stamp" ]]; then
    # Stale exactly when ./herald up would think so.
    cp -p "$ROOT/.herald/build.stamp" "$STATE/build.stamp"
  fi
}

# bench_suite_env GATEWAY_PORT POSTGRES_PORT KAFKA_PORT KAFKA_CONTROLLER_PORT: fills the array suite_env.
bench_suite_env() {
  suite_env=(HERALD_STATE_DIR="$STATE" HERALD_PORT="$1" HERALD_POSTGRES_PORT="$2"
    HERALD_KAFKA_PORT="$3" HERALD_KAFKA_CONTROLLER_PORT="$4")
  [[ "$WORKTREE" == 1 ]] || suite_env+=(HERALD_SKIP_BUILD=1)
}

# bench_start_suite DESCRIPTION: ./herald up --detach with suite_env and nothing of the caller's Herald settings.
bench_start_suite() {
  say "starting the suite ($1) in $STATE"
  STARTED=1
  local t0=$SECONDS
  if ! env -u HERALD_DATABASE_URL -u KAFKA_BOOTSTRAP_SERVERS -u HERALD_DEMO_TEST_KEY -u HERALD_DEMO_LIVE_KEY \
        -u HERALD_ADMIN_TOKEN -u HERALD_KAFKA_LIBS -u HERALD_USAGE_PLAN_OVERRIDES -u QUARKUS_REST_CLIENT_USAGE_SERVICE_URL "${suite_env[@]}" \
        timeout 600 bash -c 'cd "$1" && ./herald up --detach' _ "$SRC" > "$STATE/up.out" 2>&1; then
    cat "$STATE/up.out" >&2
    exit 1
  fi
  say "suite ready in $((SECONDS - t0)) s"
}

# bench_wait_quiet SECONDS: before the suite starts, wait up to SECONDS (0: don't wait) for a 1-minute load average
# under 0.8, no other java, mvn or postgres process and no other suite on 127.0.0.1:8181, polled every 30 s. Sets
# QUIET_REPORT, what was seen, for the results file (empty when not waiting).
bench_other_processes() {
  # java, mvn and postgres processes on the machine (the caller has started none yet)
  ps -eo pid=,comm=,args= | awk '$2 ~ /^(java|mvn|postgres)$/ || $3 ~ /(^|\/)mvnw?( |$)/ {print $1 " " $2}' | grep -v "^$$ " || true
}

bench_wait_quiet() {
  QUIET_REPORT=""
  local limit="$1" waited=0 load1 busy suite
  (( limit > 0 )) || return 0
  while :; do
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    busy="$(bench_other_processes | wc -l | tr -d ' ')"
    suite=""
    listening 8181 && suite=", another Herald suite on 127.0.0.1:8181"
    if awk -v l="$load1" 'BEGIN { exit !(l < 0.8) }' && [[ "$busy" == 0 && -z "$suite" ]]; then
      QUIET_REPORT="before the suite started: 1-minute load average $load1, no other java/mvn/postgres process (waited ${waited} s); "
      return 0
    fi
    if (( waited >= limit )); then
      QUIET_REPORT="**the machine never got quiet** before the suite started (after ${waited} s: 1-minute load average $load1, $busy other java/mvn/postgres processes); "
      say "the machine is still busy after ${waited} s (load $load1, $busy other java/mvn/postgres processes); running anyway"
      return 0
    fi
    say "waiting for a quiet machine: 1-minute load average $load1, $busy other java/mvn/postgres processes$suite"
    sleep 30
    waited=$(( waited + 30 ))
  done
}

bench_machine() {
  echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//' || echo unknown)), $(awk '/MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo 2>/dev/null); load client on the same machine"
}
