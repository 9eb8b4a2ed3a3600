#!/usr/bin/env bash
# Deep perft on the CPU backend with and without tables: start position
# perft(DEPTH) (default 8) run as
#   plain    --split 0 --hash 0          the engine alone
#   tt       --split 0                   + transposition table (automatic size)
#   deep     (defaults)                  + work units at the automatic split
# Writes results/cpu_deep_perft<DEPTH>.json with wall and CPU seconds per run,
# the machine, the commit and the load average (the development machine is
# shared: CPU seconds are the steadier measure there).
# Usage: bench/deep_cpu.sh [DEPTH] [THREADS]     (needs a built build/perftide)
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-8}
threads=${2:-$(nproc)}
bin=${PERFTIDE:-build/perftide}
out_dir=${OUT:-results}
mkdir -p "$out_dir"
out="$out_dir/cpu_deep_perft$depth.json"

run() {  # label, extra args...
    local label=$1 tmp
    shift
    tmp=$(mktemp)
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    local t0 t1 c0 c1
    t0=$(date +%s.%N)
    # CPU seconds of the child from /proc/self/stat of a wrapper shell.
    c1=$(bash -c '"$@" >'"$tmp"' ; read -ra s </proc/$$/stat; echo $(( s[15] + s[16] ))' _ \
        "$bin" perft --depth "$depth" --backend cpu --threads "$threads" --json --quiet "$@")
    t1=$(date +%s.%N)
    local ticks
    ticks=$(getconf CLK_TCK)
    printf '    {"label": "%s", "args": "%s", "wall_s": %.3f, "cpu_s": %.2f, "load_before": %s, "result": %s}' \
        "$label" "$*" "$(echo "$t1 - $t0" | bc)" "$(echo "scale=2; $c1 / $ticks" | bc)" "$load" "$(cat "$tmp")"
    rm -f "$tmp"
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo true || echo false)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
{
    echo "{"
    echo "  \"benchmark\": \"start position perft($depth), CPU backend, with and without tables\","
    echo "  \"commit\": \"$commit\", \"dirty\": $dirty, \"date\": \"$(date -u +%FT%TZ)\","
    echo "  \"machine\": {\"cpu\": \"$cpu\", \"cores\": $(nproc), \"memory_mb\": $(($(grep MemTotal /proc/meminfo | awk '{print $2}') / 1024)), \"kernel\": \"$(uname -r)\"},"
    echo "  \"threads\": $threads,"
    echo "  \"runs\": ["
    run plain --split 0 --hash 0
    echo ","
    run tt --split 0
    echo ","
    run deep
    echo
    echo "  ]"
    echo "}"
} >"$out"
cat "$out"
