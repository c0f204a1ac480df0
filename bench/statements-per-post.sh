#!/usr/bin/env bash
# Counts the SQL statements and transactions one accepted test post costs, per service database, with
# pg_stat_statements: a measure of the pipeline's database work that does not move with the machine's load, so a
# change of a few statements shows in one run (the throughput benchmark's run-to-run spread is about 12%).
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: bench/statements-per-post.sh --database-url postgresql://USER:PASSWORD@HOST:PORT [options]

  --database-url URL   a PostgreSQL server with pg_stat_statements loaded (shared_preload_libraries) and
                       pg_stat_statements.track = all; the suite's databases are created on it (HERALD_DATABASE_URL).
                       The embedded server has no contrib modules; Debian's postgresql package has them:
                         mkdir /tmp/pgss && chown postgres /tmp/pgss
                         su postgres -c '/usr/lib/postgresql/15/bin/initdb -D /tmp/pgss -A trust'
                         printf "%s\n" "shared_preload_libraries='pg_stat_statements'" "pg_stat_statements.track='all'" \
                           "pg_stat_statements.track_planning='on'" \
                           "port=25432" "listen_addresses='127.0.0.1'" "max_connections=300" >> /tmp/pgss/postgresql.conf
                         su postgres -c '/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgss -l /tmp/pgss/log start'
  --posts N            posts measured (default 200), spread over the workspaces, sent one after another in each
  --workspaces W       workspaces (default 4; scale plan, test key, one LinkedIn sandbox account each)
  --out FILE           results file (default bench/results/<UTC date-time>-statements.md)
  --timings FILE       also write, as CSV, the measured load's costliest statements (called at least --posts / 2
                       times): database, calls, plans, mean execution and planning time (µs), total (ms), statement.
                       plans close to calls means PostgreSQL plans the statement anew at every execution. Timings
                       are of this light, serial load, not of the throughput benchmark's.
  -h, --help

Runs ./herald up --detach on the working tree (building what is stale), warms the suite with two rounds of the same
posts, then measures: pg_stat_statements is reset, the posts are sent and every one is waited for until final, the
counts are read; then the same duration with the suite idle, whose counts are subtracted (pollers, relays' ticks).
Stops the suite at the end. Needs curl, psql and python3.
EOF
}

DATABASE_URL=""
POSTS=200
WORKSPACES=4
OUT=""
TIMINGS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --database-url) DATABASE_URL="$2"; shift 2 ;;
        --posts) POSTS="$2"; shift 2 ;;
        --workspaces) WORKSPACES="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --timings) TIMINGS="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
[ -n "$DATABASE_URL" ] || { usage >&2; exit 2; }

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
STAMP="$(date -u +%Y-%m-%d-%H%M)"
OUT="${OUT:-bench/results/$STAMP-statements.md}"
WORK="$(mktemp -d)"
PER_WORKSPACE=$(( (POSTS + WORKSPACES - 1) / WORKSPACES ))
POSTS=$(( PER_WORKSPACE * WORKSPACES ))
DB="${DATABASE_URL%/}"

sql() { psql "$DB/$1" -qAtX -v ON_ERROR_STOP=1 -c "$2"; }

sql postgres "create extension if not exists pg_stat_statements" >/dev/null
sql postgres "select 1 from pg_stat_statements limit 1" >/dev/null \
    || { echo "pg_stat_statements is not loaded on $DB" >&2; exit 1; }

echo "starting the suite on $DB ..."
HERALD_DATABASE_URL="$DB" ./herald up --detach > "$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; exit 1; }
trap './herald down >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
# shellcheck disable=SC1091
source .herald/credentials
GATEWAY="${HERALD_BASE_URL%/api/v1}"

json_field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p" | head -1; }

echo "setting up $WORKSPACES workspaces ..."
: > "$WORK/workspaces"
for i in $(seq 1 "$WORKSPACES"); do
    admin=(-s -H "Authorization: Bearer $HERALD_ADMIN_TOKEN" -H 'content-type: application/json')
    ws=$(curl "${admin[@]}" -d "{\"name\":\"statements $STAMP $i\"}" "$GATEWAY/admin/v1/workspaces" | json_field id)
    key=$(curl "${admin[@]}" -d '{"mode":"test"}' "$GATEWAY/admin/v1/workspaces/$ws/api-keys" | json_field secret)
    curl "${admin[@]}" -o /dev/null -X PUT -d '{"mode":"test","plan":"scale","plan_source":"comp"}' \
        "$GATEWAY/admin/v1/workspaces/$ws/plan"
    account=$(curl -s -H "Authorization: Bearer $key" -H 'content-type: application/json' \
        -d '{"platform":"linkedin","username":"statements"}' "$HERALD_BASE_URL/accounts" | json_field id)
    [ -n "$key" ] && [ -n "$account" ] || { echo "workspace $i could not be set up" >&2; exit 1; }
    echo "$key $account" >> "$WORK/workspaces"
done

# Sends PER_WORKSPACE posts in each workspace (one after another; the workspaces in parallel); fails on any answer
# but 202.
send_posts() {
    local round="$1"
    while read -r key account; do
        (for n in $(seq 1 "$PER_WORKSPACE"); do
            curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $key" -H 'content-type: application/json' \
                -H "Idempotency-Key: statements-$STAMP-$round-$n" \
                -d "{\"text\":\"Statements $round $n\",\"account_ids\":[\"$account\"]}" "$HERALD_BASE_URL/posts"
        done) &
    done < "$WORK/workspaces" > "$WORK/answers-$round"
    wait
    local refused
    refused=$(grep -vc '^202$' "$WORK/answers-$round" || true)
    [ "$refused" = 0 ] || { echo "round $round: $refused answers were not 202:" >&2; sort "$WORK/answers-$round" | uniq -c >&2; exit 1; }
}

wait_final() {
    for _ in $(seq 1 600); do
        pending=$(sql herald_posts "select count(*) from posts where status in ('queued', 'publishing')")
        [ "$pending" = 0 ] && return 0
        sleep 0.2
    done
    echo "posts still pending after 120 s" >&2
    exit 1
}

snapshot() {
    sql postgres "copy (select d.datname, s.calls, s.rows, regexp_replace(s.query, '\s+', ' ', 'g')
                        from pg_stat_statements s join pg_database d on d.oid = s.dbid
                        where d.datname like 'herald_%') to stdout with (format csv)" > "$1"
}

for round in warm1 warm2; do
    echo "warm-up round $round ($POSTS posts) ..."
    send_posts "$round"
    wait_final
done
sleep 2

echo "measuring $POSTS posts ..."
sql postgres "select pg_stat_statements_reset()" >/dev/null
start=$(date +%s.%N)
send_posts measured
wait_final
sleep 2
end=$(date +%s.%N)
snapshot "$WORK/load.csv"
if [ -n "$TIMINGS" ]; then
    echo "database,calls,plans,mean_exec_us,mean_plan_us,total_ms,statement" > "$TIMINGS"
    sql postgres "copy (select d.datname, s.calls, s.plans, round(s.mean_exec_time::numeric * 1000),
            round(s.mean_plan_time::numeric * 1000), round((s.total_exec_time + s.total_plan_time)::numeric),
            left(regexp_replace(s.query, '\s+', ' ', 'g'), 120)
        from pg_stat_statements s join pg_database d on d.oid = s.dbid
        where d.datname like 'herald_%' and s.calls >= $POSTS / 2
        order by s.total_exec_time + s.total_plan_time desc) to stdout with (format csv)" >> "$TIMINGS"
fi
published=$(sql herald_posts "select count(*) from posts where text like 'Statements measured %' and status = 'published'")

seconds=$(python3 -c "print(round($end - $start, 1))")
echo "idle for $seconds s ..."
sql postgres "select pg_stat_statements_reset()" >/dev/null
sleep "$seconds"
snapshot "$WORK/idle.csv"

commit=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain --untracked-files=no | grep -q . && echo " (with uncommitted changes)" || true)
mkdir -p "$(dirname "$OUT")"
python3 - "$WORK/load.csv" "$WORK/idle.csv" "$POSTS" "$published" "$seconds" "$commit$dirty" "$WORKSPACES" > "$OUT" <<'EOF'
import csv, sys
load_file, idle_file, posts, published, seconds, commit, workspaces = sys.argv[1:]
posts = int(posts)

def read(path):
    counts = {}
    for database, calls, rows, query in csv.reader(open(path)):
        key = (database, query)
        calls_then, rows_then = counts.get(key, (0, 0))
        counts[key] = (calls_then + int(calls), rows_then + int(rows))
    return counts

load, idle = read(load_file), read(idle_file)
per_post = {}
for key, (calls, rows) in load.items():
    net = calls - idle.get(key, (0, 0))[0]
    if net > 0:
        per_post[key] = net / posts

def is_transaction_end(query):
    return query.strip().upper() in ("COMMIT", "ROLLBACK")

print(f"# SQL statements per accepted post\n")
print(f"Commit `{commit}`; {posts} test posts (one LinkedIn sandbox target each) over {workspaces} workspaces, "
      f"{published} of them published; measured {seconds} s under load, minus the same time idle. "
      "Counted with `pg_stat_statements` (`track = all`): every statement a service sent, `BEGIN` and `COMMIT` "
      "included, and the ones PostgreSQL runs for foreign keys. Made by `bench/statements-per-post.sh`.\n")
databases = sorted({database for database, _ in per_post})
print("| database | statements / post | explicit transactions (BEGIN) / post |")
print("|---|---:|---:|")
total = begins = 0.0
for database in databases:
    statements = sum(v for (d, q), v in per_post.items() if d == database)
    begin = sum(v for (d, q), v in per_post.items() if d == database and q.strip().upper() in ("BEGIN", "START TRANSACTION"))
    total += statements
    begins += begin
    print(f"| {database} | {statements:.2f} | {begin:.2f} |")
print(f"| **all** | **{total:.2f}** | {begins:.2f} |\n")
print("Statements at 0.05 per post or more, by database:\n")
print("| database | per post | statement |")
print("|---|---:|---|")
for (database, query), value in sorted(per_post.items(), key=lambda item: (item[0][0], -item[1])):
    if value >= 0.05:
        text = query if len(query) <= 140 else query[:137] + "..."
        print(f"| {database} | {value:.2f} | `{text.replace('|', '/')}` |")
EOF
echo "wrote $OUT"
cat "$OUT" | head -20
