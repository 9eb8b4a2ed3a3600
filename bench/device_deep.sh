#!/usr/bin/env bash
# GPU deep perft targets on one H200: start position perft(10) in 10 s or
# less, perft(11) in 40 s or less, perft(12) in 10 minutes or less
# (`perftide perft --backend gpu --depth N --json`, work units, device
# transposition tables, duplicate removal and the host table at their
# automatic settings). perft(10) runs a second time with other Zobrist keys
# (CONFIRM_SEED, default 0x5eed; empty to skip), as a deep result is
# confirmed.
#
# Prepared on a machine without a GPU and not run there: it needs a CUDA
# device. It assumes build/perftide is already built with the CUDA backend, the
# way bench/device_check.sh builds it on the device machine (override with
# PERFTIDE=path). One device call is limited to 10 minutes, so run perft(12)
# on its own:   DEPTHS="10 11" bench/device_deep.sh   then   DEPTHS=12 bench/device_deep.sh
#
# Writes $OUT/gpu_deep_perft.json ($OUT is the device tool's output folder;
# results/ when unset): per depth the target, the timeout, the status (ok,
# mismatch, timeout, error), wall seconds and perftide's JSON; plus the GPU,
# the commit and the date. Exit status 1 when a count is wrong or a target
# is missed.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${PERFTIDE:-build/perftide}
out_dir=${OUT:-results}
depths=${DEPTHS:-"10 11 12"}
mkdir -p "$out_dir"
out="$out_dir/gpu_deep_perft.json"

# Published start position counts (chessprogramming.org "Perft Results",
# OEIS A048987) and the targets in seconds.
declare -A published=([10]=69352859712417 [11]=2097651003696806 [12]=62854969236701747)
declare -A target=([10]=10 [11]=40 [12]=600)
# A run may overshoot its target by half before it is cut off (so a near miss
# is still measured), within the 600 s a device call may take.
declare -A cutoff=([10]=15 [11]=60 [12]=590)

if [ ! -x "$bin" ]; then
    echo "device_deep: $bin is missing; build perftide with CUDA first (see bench/device_check.sh)" >&2
    exit 2
fi

gpu=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1 || echo unknown)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
status_all=0
entries=()
confirm_seed=${CONFIRM_SEED-0x5eed}
runs=()
for d in $depths; do
    runs+=("$d:")
    [ "$d" = 10 ] && [ -n "$confirm_seed" ] && runs+=("$d:$confirm_seed")
done
for run in "${runs[@]}"; do
    d=${run%%:*}
    seed=${run#*:}
    seed_args=()
    [ -n "$seed" ] && seed_args=(--zobrist-seed "$seed")
    tmp=$(mktemp)
    t0=$(date +%s.%N)
    timeout "${cutoff[$d]}" "$bin" perft --backend gpu --depth "$d" --json --quiet "${seed_args[@]}" >"$tmp" 2>"$tmp.err"
    rc=$?
    wall=$(printf '%.3f' "$(echo "$(date +%s.%N) - $t0" | bc)")  # bc prints .5 for 0.5, which JSON refuses
    nodes=$(grep -o '"nodes": "*[0-9]*' "$tmp" | grep -o '[0-9]*$')
    if [ $rc -eq 124 ]; then
        st=timeout
    elif [ $rc -ne 0 ]; then
        st=error
    elif [ "$nodes" != "${published[$d]}" ]; then
        st=mismatch
    else
        st=ok
    fi
    met=$(echo "$wall <= ${target[$d]}" | bc)
    [ "$st" = ok ] && [ "$met" = 1 ] || status_all=1
    result=$(cat "$tmp")
    [ -n "$result" ] || result=null
    err=$(tr '"\\\n' "''  " <"$tmp.err" | cut -c1-400)
    entries+=("    {\"depth\": $d, \"zobrist_seed\": \"${seed:-default}\", \"target_s\": ${target[$d]}, \"timeout_s\": ${cutoff[$d]}, \"status\": \"$st\", \"met_target\": $([ "$met" = 1 ] && [ "$st" = ok ] && echo true || echo false), \"wall_s\": $wall, \"expected\": \"${published[$d]}\", \"stderr\": \"$err\", \"result\": $result}")
    echo "perft($d)${seed:+ seed $seed}: $st, ${wall} s (target ${target[$d]} s)" >&2
    rm -f "$tmp" "$tmp.err"
done

{
    echo "{"
    echo "  \"benchmark\": \"GPU deep perft targets, start position\","
    echo "  \"gpu\": \"$gpu\", \"commit\": \"$commit\", \"date\": \"$(date -u +%FT%TZ)\","
    echo "  \"runs\": ["
    for i in "${!entries[@]}"; do
        [ "$i" -gt 0 ] && echo ","
        printf '%s' "${entries[$i]}"
    done
    echo
    echo "  ]"
    echo "}"
} >"$out"
cat "$out"
exit $status_all
