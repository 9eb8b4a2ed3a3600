#!/usr/bin/env bash
# Static instruction counts per GPU kernel: SASS from cuobjdump of the cubin
# where the toolkit has cuobjdump, and PTX (the virtual ISA nvcc hands to
# ptxas) always. With bench/ptxas_report.sh, how a rules change shows on the
# device leaf without a device. Needs nvcc, not a GPU.
# Usage: bench/sass_count.sh [KERNEL_SUBSTRING] [extra nvcc args]
# (default: the leaf kernels, LeafCount). ARCH (default 90) picks the target.
# A toolkit without cuobjdump can take it and nvdisasm from PyPI (packages
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm, 13.2 reads 13.0's cubins):
# put their nvidia/cu13/bin on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${ARCH:-90}
filter=${1:-LeafCount}
shift || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -O3 --expt-relaxed-constexpr -Icommon -Ikernels "$@")
nvcc "${flags[@]}" -arch=compute_$arch -ptx kernels/gpu/gpu_perft.cu -o "$tmp/k.ptx"
# PTX: instruction lines (opcode ... ;) inside each .entry body.
awk '
  /^\.visible \.entry|^\.entry/ { match($0, /_Z[A-Za-z0-9_]+/); name = substr($0, RSTART, RLENGTH) }
  name != "" && /^\t[a-z@!][^:]*;/ && $1 !~ /^\./ { count[name]++ }
  END { for (n in count) print n "\tptx\t" count[n] }' "$tmp/k.ptx" > "$tmp/counts"
if command -v cuobjdump > /dev/null; then
    nvcc "${flags[@]}" -arch=sm_$arch -cubin kernels/gpu/gpu_perft.cu -o "$tmp/k.cubin"
    cuobjdump -sass "$tmp/k.cubin" | awk '
      /Function :/ { name = $3 }
      /^ +\/\*[0-9a-f]+\*\/ / && name != "" { count[name]++ }
      END { for (n in count) print n "\tsass\t" count[n] }' >> "$tmp/counts"
else
    echo "(cuobjdump not in this toolkit: PTX counts only)" >&2
fi
echo "| kernel (sm_$arch) | PTX instructions | SASS instructions |"
echo "| --- | --- | --- |"
sort "$tmp/counts" | awk -F'\t' '{ v[$1, $2] = $3; names[$1] = 1 }
  END { for (n in names) print n "\t" v[n, "ptx"] "\t" (v[n, "sass"] == "" ? "-" : v[n, "sass"]) }' |
  while IFS=$'\t' read -r name ptx sass; do
    pretty=$(echo "$name" | c++filt | sed -E 's/\(chess::Color\)0/WHITE/g; s/\(chess::Color\)1/BLACK/g;
               s/perftide::gpu:://g; s/^void //; s/\(.*$//; s/ >/>/g')
    case "$pretty" in *"$filter"*) echo "| \`$pretty\` | $ptx | $sass |" ;; esac
  done | sort
