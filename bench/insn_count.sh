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
# One callgrind run per case: the driver's line (name, depth, nodes) on
# stdout, callgrind's instruction total on stderr.
. "$here/bench/callgrind_lib.sh"
callgrind_setup "$tree"
for i in 0 1 2 3; do
  line=$(run $i)
  total=$(collected)
  nodes=$(echo "$line" | sed -E 's/.*: ([0-9]+) nodes.*/\1/')
  printf "%s %d.%02d instructions/leaf\n" "${line%%,*}" $(( (total - base) / nodes )) $(( (total - base) * 100 / nodes % 100 ))
done
