#!/usr/bin/env bash
# Instructions per leaf node of perft statistics beside plain bulk-counted
# perft, under callgrind (repeatable on a busy machine), one thread, no
# table: bench/perft_leaf.cpp built from SOURCE_TREE (default: this one) as
# bench/insn_count.sh builds it, each case run both ways. Prints one line
# per position (plain, stats, ratio) and, with --json FILE, writes them.
# EXTRA (default 0) adds plies to the driver's depths (start 5, Kiwipete 4,
# position 3 6, position 4 5).
# Usage: bench/stats_insn_count.sh [SOURCE_TREE] [--json FILE]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=$here json=
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=$2; shift 2 ;;
    *) tree=$(cd "$1" && pwd); shift ;;
  esac
done
extra=${EXTRA:-0}
. "$here/bench/callgrind_lib.sh"
callgrind_setup "$tree"
rows=()
for i in 0 1 2 3; do
  line=$(run $i "$extra")
  plain=$(collected)
  sline=$(run $i "$extra" stats)
  stats=$(collected)
  nodes=$(echo "$line" | sed -E 's/.*: ([0-9]+) nodes.*/\1/')
  snodes=$(echo "$sline" | sed -E 's/.*: ([0-9]+) nodes.*/\1/')
  [ "$nodes" = "$snodes" ] || { echo "node counts differ: $line / $sline" >&2; exit 1; }
  name=${line%% depth*} depth=$(echo "$line" | sed -E 's/.* depth ([0-9]+):.*/\1/')
  p=$(awk -v t="$plain" -v b="$base" -v n="$nodes" 'BEGIN { printf "%.2f", (t - b) / n }')
  s=$(awk -v t="$stats" -v b="$base" -v n="$nodes" 'BEGIN { printf "%.2f", (t - b) / n }')
  r=$(awk -v p="$p" -v s="$s" 'BEGIN { printf "%.2f", s / p }')
  printf "%s depth %s: %s leaves, plain %s, stats %s instructions/leaf, ratio %s\n" "$name" "$depth" "$nodes" "$p" "$s" "$r"
  rows+=("{\"position\": \"$name\", \"depth\": $depth, \"leaves\": $nodes, \"plain_insn_per_leaf\": $p, \"stats_insn_per_leaf\": $s, \"ratio\": $r}")
done
if [ -n "$json" ]; then
  { echo "["; for k in "${!rows[@]}"; do printf "  %s%s\n" "${rows[$k]}" "$([ "$k" -lt 3 ] && echo ,)"; done; echo "]"; } > "$json"
fi
