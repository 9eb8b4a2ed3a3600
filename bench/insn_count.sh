#!/usr/bin/env bash
# Instruction counts of single-thread CPU perft under callgrind: repeatable
# on a busy machine, so small rules-code changes can be compared exactly.
# Usage: bench/insn_count.sh [gperft binary]   (build it without AVX-512,
# e.g. -DGPERFT_CPU_ARCH=x86-64-v3: valgrind does not decode AVX-512).
# Prints instructions per leaf node for three positions, table set-up
# subtracted.
set -euo pipefail
bin=${1:-build-cg/gperft}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" perft --backend cpu -t 1 "$@" 2>&1 |
    sed -n 's/.*Collected : //p'
}
base=$(count -d 0)
while read -r name depth nodes fen; do
  total=$(count -d "$depth" --fen "$fen")
  echo "$name depth $depth: $(( (total - base) / nodes )).$(( (total - base) * 100 / nodes % 100 )) instructions/node"
done <<'POSITIONS'
start 5 4865609 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
kiwipete 4 4085603 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
position3 6 11030083 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
POSITIONS
