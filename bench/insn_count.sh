#!/usr/bin/env bash
# Instructions per leaf of single-thread perft under callgrind: repeatable on
# a busy machine, so small rules-code changes compare exactly. Builds
# bench/perft_leaf.cpp against the rules header of SOURCE_TREE (default: this
# one; give an older checkout, e.g. a `git worktree`, for the other side of
# a before/after), for x86-64-v3 (BMI2, so the pext lookup; valgrind does not
# decode AVX-512), and prints instructions per leaf node of four positions,
# table set-up subtracted.
# Usage: bench/insn_count.sh [SOURCE_TREE]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "${1:-$here}" && pwd)
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
g++ -std=c++20 -O3 -DNDEBUG -march=x86-64-v3 -I"$tree/common" "$here/bench/perft_leaf.cpp" \
    "$tree/common/chess/io/fen.cpp" -o "$bin"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
base=$(count 9)
i=0
for nodes in 4865609 4085603 11030083 15833292; do
  total=$(count $i)
  "$bin" $i | sed "s/,.*//" | tr '\n' ' '
  printf "%d.%02d instructions/leaf\n" $(( (total - base) / nodes )) $(( (total - base) * 100 / nodes % 100 ))
  i=$((i + 1))
done
