#!/usr/bin/env bash
# Times the analyzer's commands against their plain peers on this machine and
# writes results/analyzer_bench.json (or $OUT/analyzer_bench.json):
#   perft --stats beside plain perft (Kiwipete, depth 5),
#   unique (start position, ply 5) beside perft(5),
#   analyze --no-search over the CHA positions, 20 times (positions per second).
# Usage: bench/analyzer_bench.sh [path/to/perftide]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/perftide}
out_dir=${OUT:-results}
mkdir -p "$out_dir"
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

seconds() {  # wall seconds of a command, its output discarded
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    printf '%.3f' "$(echo "$end - $start" | bc)"
}

stats=$(seconds "$bin" perft --stats --depth 5 --backend cpu --fen "$kiwipete")
plain=$(seconds "$bin" perft --depth 5 --backend cpu --fen "$kiwipete")
unique=$(seconds "$bin" unique --depth 5 --backend cpu)
perft5=$(seconds "$bin" perft --depth 5 --backend cpu)
for _ in $(seq 20); do  # 20 copies: enough positions to outweigh start-up
    grep -v '^#' tests/data/dead/chasolver-positions.txt | cut -c4-
done > /tmp/perftide_cha_$$.fen
count=$(wc -l < /tmp/perftide_cha_$$.fen)
analyze=$(seconds "$bin" analyze --no-search --json --file /tmp/perftide_cha_$$.fen)
rm -f /tmp/perftide_cha_$$.fen

cat > "$out_dir/analyzer_bench.json" <<JSON
{
  "machine": "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) threads",
  "load_average": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "commit": "$(git rev-parse --short HEAD)",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "perft_stats_kiwipete_d5_seconds": $stats,
  "peer_perft_kiwipete_d5_seconds": $plain,
  "unique_start_ply5_seconds": $unique,
  "peer_perft_start_d5_seconds": $perft5,
  "analyze_no_search_positions": $count,
  "analyze_no_search_seconds": $analyze,
  "analyze_no_search_positions_per_second": $(echo "$count / $analyze" | bc),
  "note": "wall-clock seconds of whole commands (start-up included), default threads"
}
JSON
cat "$out_dir/analyzer_bench.json"
