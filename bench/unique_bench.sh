#!/usr/bin/env bash
# Distinct positions per ply from the start position on the CPU engine:
# wall, CPU and peak resident memory of the whole process, and the count
# against OEIS A083276 (tests/data/unique/a083276.txt).
#   ply 6 and 7 with the defaults, ply 7 on one thread and in 8 passes;
#   with --ply8: ply 8 under --memory 12000 with a journal, killed with
#   SIGKILL once half its passes are journaled and then resumed (the two
#   processes' times are both recorded).
# Usage: bench/unique_bench.sh [--ply8] [perftide binary]   -> results/unique_cpu.json
set -euo pipefail
cd "$(dirname "$0")/.."
ply8=0
[ "${1:-}" = --ply8 ] && { ply8=1; shift; }
bin=${1:-build/perftide}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

term() { awk -v p="$1" '$1 == p {print $2}' tests/data/unique/a083276.txt; }

# run NAME ARGS...: one timed process; sets wall user sys rss_mb status.
run() {
  local name=$1; shift
  set +e
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$bin" unique --json "$@" >"$work/$name.json" 2>"$work/$name.err"
  status=$?
  set -e
  read -r wall user sys rss_kb < <(tail -1 "$work/$name.time")
  rss_mb=$((rss_kb / 1024))
}

# distinct count of the last ply in a unique JSON
last_distinct() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plies"][-1]["distinct"])' "$1"; }

rows=""
add_row() {  # depth args distinct
  local depth=$1 args=$2 distinct=$3 extra=${4:-}
  local expected; expected=$(term "$depth")
  rows="$rows${rows:+,}
  {\"depth\": $depth, \"args\": \"$args\", \"distinct\": $distinct, \"a083276\": $expected, \"matches\": $([ "$distinct" = "$expected" ] && echo true || echo false), \"wall_s\": $wall, \"user_s\": $user, \"sys_s\": $sys, \"peak_rss_mb\": $rss_mb$extra}"
  echo "ply $depth ($args): $distinct (A083276 $expected), wall $wall s, user $user s, peak $rss_mb MiB"
}

for spec in "6|" "7|" "7|--threads 1" "7|--passes 8"; do
  depth=${spec%%|*}; args=${spec#*|}
  # shellcheck disable=SC2086
  run "p$depth" --depth "$depth" $args
  [ "$status" = 0 ] || { echo "ply $depth failed: $(cat "$work/p$depth.err")" >&2; exit 1; }
  add_row "$depth" "$args" "$(last_distinct "$work/p$depth.json")"
done

if [ "$ply8" = 1 ]; then
  journal=$work/ply8.journal
  args="--depth 8 --memory 12000 --journal $journal"
  # shellcheck disable=SC2086
  ( run killed $args ) &
  runner=$!
  # Wait for the pass count in the journal's header, then for half the passes.
  while kill -0 $runner 2>/dev/null; do
    units=$(sed -n '1s/.* units \([0-9]*\) .*/\1/p' "$journal" 2>/dev/null || true)
    done_units=$(grep -c '^unit' "$journal" 2>/dev/null || true)
    if [ -n "$units" ] && [ "${done_units:-0}" -ge $((units / 2)) ]; then
      pkill -KILL -f -- "^$bin unique --json $args" || true
      break
    fi
    sleep 1
  done
  wait $runner || true
  read -r k_wall k_user k_sys k_rss < <(grep -v '^Command' "$work/killed.time" | tail -1)
  killed_passes=$(( $(grep -c '^unit' "$journal") / 12 ))
  # shellcheck disable=SC2086
  run resumed $args
  [ "$status" = 0 ] || { echo "resumed ply 8 failed: $(cat "$work/resumed.err")" >&2; exit 1; }
  passes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plies"][-1]["passes"])' "$work/resumed.json")
  add_row 8 "--memory 12000 --journal, killed and resumed" "$(last_distinct "$work/resumed.json")" \
    ", \"passes\": $passes, \"passes_done_when_killed\": $killed_passes, \"killed_run\": {\"wall_s\": ${k_wall:-null}, \"user_s\": ${k_user:-null}, \"peak_rss_mb\": $(( ${k_rss:-0} / 1024 ))}, \"journal_bytes\": $(stat -c %s "$journal")"
  cp "$work/resumed.json" results/research/unique_ply8.json
fi

cat > results/unique_cpu.json <<JSON
{"benchmark": "perftide unique from the start position, CPU engine (whole process; peak resident memory)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB",
 "commit": "$(git rev-parse --short HEAD)", "date": "$(date -u +%F)",
 "rows": [$rows
 ]}
JSON
echo "wrote results/unique_cpu.json"
