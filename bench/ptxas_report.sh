#!/usr/bin/env bash
# Resource usage of the GPU engine's kernels as ptxas reports it (registers,
# stack frame, spill stores/loads, shared memory), one markdown table row per
# kernel. Needs nvcc, not a GPU. Extra arguments go to nvcc, e.g.
#   bench/ptxas_report.sh -DPERFTIDE_LEAF_MIN_BLOCKS=2
# ARCH (default 90) picks the target.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${ARCH:-90}
log=$(nvcc -std=c++20 -O3 --expt-relaxed-constexpr -arch=sm_$arch -Icommon -Ikernels -Xptxas -v "$@" \
        -c kernels/gpu/gpu_perft.cu -o /dev/null 2>&1)
echo "| kernel (sm_$arch${*:+, $*}) | registers | stack bytes | spill stores | spill loads | shared bytes |"
echo "| --- | --- | --- | --- | --- | --- |"
echo "$log" | awk '
  /Compiling entry function/ { match($0, /_Z[A-Za-z0-9_]+/); name = substr($0, RSTART, RLENGTH) }
  /bytes stack frame/ { stack = $1; st = $5; ld = $9 }
  /Used [0-9]+ registers/ {
    match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5)
    smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11)
    print name "\t" regs "\t" stack "\t" st "\t" ld "\t" smem }' |
  while IFS=$'\t' read -r name regs stack st ld smem; do
    pretty=$(echo "$name" | c++filt | sed -E 's/\(chess::Color\)0/WHITE/g; s/\(chess::Color\)1/BLACK/g;
               s/perftide::gpu:://g; s/^void //; s/\(.*$//; s/ >/>/g')
    case "$pretty" in
      cub*) pretty="cub $( (echo "$pretty" | grep -oE 'Device(Scan|RadixSort)[A-Za-z]*|EmptyKernel' || echo kernel) | head -1)" ;;
    esac
    echo "| \`$pretty\` | $regs | $stack | $st | $ld | $smem |"
  done
