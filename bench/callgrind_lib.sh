# Sourced by the instruction-count scripts (bench/insn_count.sh,
# bench/stats_insn_count.sh): builds bench/perft_leaf.cpp against the rules
# header of a source tree, for x86-64-v3 (BMI2, so the pext lookup; valgrind
# does not decode AVX-512), and runs it under callgrind.
# `callgrind_setup TREE` (with $here the checkout holding bench/) builds it
# and sets $base, the instructions of the table set-up alone; then `run ARGS`
# runs the driver (its line on stdout) and `collected` prints that run's total.
callgrind_setup() {
  bin=$(mktemp)
  trap 'rm -f "$bin" "$bin.log"' EXIT
  g++ -std=c++20 -O3 -DNDEBUG -march=x86-64-v3 -I"$1/common" "$here/bench/perft_leaf.cpp" \
      "$1/common/chess/io/fen.cpp" -o "$bin"
  run 9 > /dev/null
  base=$(collected)
}
run() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2> "$bin.log"; }
collected() { sed -n 's/.*Collected : //p' "$bin.log"; }
