#!/usr/bin/env bash
# What a transposition table costs before it saves anything: start position
# perft 7 and 8 on the CPU with 64 MiB, 1 GiB and 4 GiB tables (--hash-force,
# so the size is not cut to what the run can fill), wall, user and system
# seconds of the whole process, against the automatic size.
# Usage: bench/table_alloc.sh [perftide binary]   -> results/table_allocation.json
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/perftide}
rows=""
for depth in 7 8; do
  for mb in auto 64 1024 4096; do
    opts="--hash $mb --hash-force"
    [ "$mb" = auto ] && opts=""
    t=$( { /usr/bin/time -f "%e %U %S" "$bin" perft --depth "$depth" --backend cpu $opts --quiet >/dev/null; } 2>&1 | tail -1)
    read -r wall user sys <<<"$t"
    rows="$rows${rows:+,}
    {\"depth\": $depth, \"hash_mb\": \"$mb\", \"wall_s\": $wall, \"user_s\": $user, \"sys_s\": $sys}"
    echo "depth $depth hash $mb: wall $wall s, user $user s, sys $sys s"
  done
done
cat > results/table_allocation.json <<JSON
{"benchmark": "start position CPU perft with a forced table size (first-touch cost)",
 "machine": "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB",
 "commit": "$(git rev-parse --short HEAD)", "date": "$(date -u +%F)",
 "rows": [$rows
 ]}
JSON
echo "wrote results/table_allocation.json"
