#!/usr/bin/env bash
# CPU scaling, for the plots: start position perft 7 with 1..N threads (no
# table, no work units: the plain parallel engine), and perft 5..8 by depth
# on all threads without and with the transposition table (the automatic
# size). Wall seconds of the whole process, best of REPEAT runs (perft 8
# without a table takes about a minute a run on two cores).
# Usage: bench/cpu_scaling.sh [perftide binary] [repeat]   -> results/cpu_scaling.json
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/perftide}
repeat=${2:-3}

best_wall() {  # best wall seconds of $repeat runs of: perftide "$@"
  local best=""
  for _ in $(seq "$repeat"); do
    local t0 t
    t0=$(date +%s.%N)
    "$bin" "$@" --quiet >/dev/null 2>&1
    t=$(awk "BEGIN {printf \"%.3f\", $(date +%s.%N) - $t0}")
    if [ -z "$best" ] || awk "BEGIN {exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}

threads=""
for n in $(seq 1 "$(nproc)"); do
  t=$(best_wall perft --depth 7 --backend cpu --threads "$n" --split 0 --hash 0)
  threads="$threads${threads:+,}
   {\"threads\": $n, \"wall_s\": $t}"
  echo "perft 7, $n threads, no table: $t s"
done
depths=""
for d in 5 6 7 8; do
  plain=$(best_wall perft --depth "$d" --backend cpu --split 0 --hash 0)
  tables=$(best_wall perft --depth "$d" --backend cpu --split 0)
  depths="$depths${depths:+,}
   {\"depth\": $d, \"plain_wall_s\": $plain, \"table_wall_s\": $tables}"
  echo "perft $d: plain $plain s, with the table $tables s"
done
cat > results/cpu_scaling.json <<JSON
{"benchmark": "start position CPU perft: threads (depth 7, no table) and depth (all threads, without and with the table)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB",
 "commit": "$(git rev-parse --short HEAD)", "date": "$(date -u +%F)",
 "method": "wall seconds of the whole process, best of $repeat",
 "threads": [$threads
 ],
 "depths": [$depths
 ]}
JSON
echo "wrote results/cpu_scaling.json"
