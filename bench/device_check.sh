#!/usr/bin/env bash
# Device check for a machine with one NVIDIA GPU (made for an H200: compute
# capability 9.0, CUDA 13, CMake, Ninja; no network, no CLI11, GoogleTest or
# nlohmann-json packages). Run from the repository root after
# bench/prepare_device.sh has filled .deps/. Sized for 15 minutes of device
# time with room to run it twice: the whole run stays within
# DEVICE_CHECK_BUDGET seconds (default 360), build included, in this order:
#   1. the GPU's name and memory, nvcc's version, perftide's own commit;
#   2. configure (CMAKE_CUDA_ARCHITECTURES=90) and build only perftide,
#      gpu_bench and test_gpu_backend;
#   3. a smoke run with PERFTIDE_SYNC_LAUNCHES=1 (a fault names its kernel):
#      start position perft 5 divide on the GPU against the CPU, line by line;
#   4. the whole `gpu` test label as one ctest run, capped at 90 s;
#   5. compute-sanitizer memcheck and racecheck on a small-arena test and on
#      a statistics run (skipped with a note when the tool is missing);
#   6. the benchmarks: 100 start position perft 5 calls in one process (ms
#      per call; goal under 5 ms), start perft 9 and Kiwipete perft 7
#      without tables and without duplicate removal (raw throughput), unique
#      ply 7 on the GPU against A083276, `perft --stats` start depth 7
#      against the Grand Chess Tree row (in one call, and in 400 work units
#      on the deep engine), deep perft 11 with tables and, when at least
#      320 s are left, perft 12;
#   7. a one-screen summary.
# One JSON file (GPU, commit, every step's status, tests, benchmarks) plus
# logs go to $OUT, or results/ when OUT is unset. Without a GPU (a dry run)
# every device step is recorded as skipped with its reason and the JSON is
# still written; DEVICE_CHECK_SKIP_BUILD=1 reuses an existing build.
# Exit status: 0 when the build, the tests and every count were good.
set -uo pipefail
cd "$(dirname "$0")/.."

BUDGET=${DEVICE_CHECK_BUDGET:-360}
ARCH=${DEVICE_CHECK_ARCH:-90}
BUILD=${DEVICE_CHECK_BUILD:-build}  # bench/device_deep.sh uses build/perftide
start=$(date +%s)
out=${OUT:-results}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
logs="$out/device_check_$stamp"
mkdir -p "$logs"
steps=""
failed=0

left() { echo $((BUDGET - ($(date +%s) - start))); }

json_str() {  # a JSON string literal of $1
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/ }
  printf '"%s"' "$s"
}

# step NAME LIMIT CMD...: runs CMD under min(LIMIT, budget left - 10) seconds,
# output to $logs/NAME.log; records name, exit status and seconds.
step() {
  local name=$1 limit=$2
  shift 2
  local budget_left=$(( $(left) - 10 ))
  [ "$budget_left" -lt "$limit" ] && limit=$budget_left
  local t0 rc
  t0=$(date +%s)
  if [ "$limit" -lt 5 ]; then
    rc=124
    echo "skipped: the time budget is spent" > "$logs/$name.log"
  else
    timeout -k 5 "$limit" "$@" > "$logs/$name.log" 2>&1
    rc=$?
  fi
  steps+="${steps:+, }{\"name\": $(json_str "$name"), \"status\": $rc, \"seconds\": $(( $(date +%s) - t0 )), \"limit\": $limit}"
  echo "device_check: $name -> status $rc ($(( $(date +%s) - t0 )) s)" >&2
  return $rc
}

# skipped NAME REASON: a step that did not run, in the JSON with its reason.
skipped() {
  steps+="${steps:+, }{\"name\": $(json_str "$1"), \"status\": \"skipped\", \"reason\": $(json_str "$2")}"
  echo "device_check: $1 -> skipped ($2)" >&2
}

# --- 1. what is measured, and on what -----------------------------------------
# perftide's own commit: git's only when this folder is itself a work tree's
# root (not a folder inside another repository), else .deps/commit, which
# bench/prepare_device.sh wrote from perftide's work tree.
root=$(pwd -P)
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || true)
commit=unknown
dirty=false
commit_source=none
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$root" ]; then
  commit=$(git -C "$root" rev-parse HEAD)
  [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ] && dirty=true
  commit_source=git
elif [ -f .deps/commit ]; then
  read -r commit dirty < .deps/commit
  commit_source=.deps/commit
fi
gpu_info="nvidia-smi not found"
have_gpu=false
if command -v nvidia-smi > /dev/null; then
  gpu_info=$(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -1)
  nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && have_gpu=true
fi
no_gpu="no GPU here ($gpu_info)"
nvcc_version=$(nvcc --version 2>/dev/null | grep -i release | head -1)

# --- 2. build -------------------------------------------------------------------
deps=()
[ -f .deps/cli11/CLI/CLI.hpp ] && deps+=("-DCLI11_INCLUDE_DIR=$PWD/.deps/cli11")
[ -f .deps/googletest/CMakeLists.txt ] && deps+=("-DPERFTIDE_GTEST_SOURCE_DIR=$PWD/.deps/googletest")
[ -f .deps/nlohmann-json/nlohmann/json.hpp ] && deps+=("-DNLOHMANN_JSON_INCLUDE_DIR=$PWD/.deps/nlohmann-json")
built=false
if [ "${DEVICE_CHECK_SKIP_BUILD:-0}" = 1 ] && [ -x "$BUILD/perftide" ] && [ -x "$BUILD/gpu_bench" ]; then
  skipped configure "DEVICE_CHECK_SKIP_BUILD=1: $BUILD reused"
  skipped build "DEVICE_CHECK_SKIP_BUILD=1: $BUILD reused"
  built=true
elif step configure 60 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
      -DPERFTIDE_PTXAS_VERBOSE=ON "${deps[@]}" &&
   step build 200 cmake --build "$BUILD" -j "$(nproc)" --target perftide gpu_bench test_gpu_backend; then
  built=true
fi
[ -f "$logs/build.log" ] && grep -E "ptxas info|bytes stack frame" "$logs/build.log" > "$logs/ptxas_sm$ARCH.txt"
$built || failed=1

# device_step NAME LIMIT CMD...: a step that needs the build and a GPU;
# returns SKIP when there is no GPU (no command returns that status).
SKIP=200
device_step() {
  if ! $built; then skipped "$1" "the build failed"; return 1; fi
  if ! $have_gpu; then skipped "$1" "$no_gpu"; return $SKIP; fi
  step "$@"
}
status_json() { [ "$1" -eq $SKIP ] && echo '"skipped"' || echo "$1"; }

# --- 3. smoke run: the first kernels, each synchronised ---------------------------
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
device_step smoke 30 bash -c "PERFTIDE_SYNC_LAUNCHES=1 ./$BUILD/perftide perft --depth 5 --divide --backend gpu > '$logs/smoke_gpu.txt' &&
    ./$BUILD/perftide perft --depth 5 --divide --backend cpu > '$logs/smoke_cpu.txt' &&
    diff '$logs/smoke_cpu.txt' '$logs/smoke_gpu.txt' && grep -q 'Nodes searched: 4865609' '$logs/smoke_gpu.txt'"
smoke_status=$?
[ "$smoke_status" -eq 0 ] || failed=1

# --- 4. the gpu tests, as one run ---------------------------------------------------
tests_summary="not run"
device_step gpu_tests 90 ctest --test-dir "$BUILD" -L '^gpu$' --output-on-failure --timeout 85
tests_status=$?
if [ -f "$logs/gpu_tests.log" ]; then
  tests_summary=$(grep -E "tests passed|tests failed" "$logs/gpu_tests.log" | tail -1)
  [ -z "$tests_summary" ] && [ "$tests_status" -eq 124 ] && tests_summary="ran out of time (see gpu_tests.log)"
  skips=$(grep -c "(Skipped)" "$logs/gpu_tests.log")
  if [ "$skips" -gt 0 ]; then  # on the device machine a skip means the device was not usable
    tests_summary+=", $skips skipped (see gpu_tests.log)"
    [ "$tests_status" -eq 0 ] && tests_status=3
  fi
fi
[ "$tests_status" -eq 0 ] || failed=1

# --- 5. compute-sanitizer ------------------------------------------------------------
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
sanitizer_note=""
if [ -z "$sanitizer" ]; then
  sanitizer_note="compute-sanitizer not found: memcheck and racecheck skipped"
  skipped sanitizer "$sanitizer_note"
else
  for tool in memcheck racecheck; do
    device_step "sanitizer_${tool}_small_arena" 40 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "./$BUILD/tests/test_gpu_backend" --gtest_filter=GpuBackend.SmallArenaSplitsAndAgrees
    rc=$?; [ $rc -eq 0 ] || [ $rc -eq $SKIP ] || failed=1
    device_step "sanitizer_${tool}_stats" 30 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "./$BUILD/perftide" perft --stats --depth 3 --backend gpu
    rc=$?; [ $rc -eq 0 ] || [ $rc -eq $SKIP ] || failed=1
  done
fi

# --- 6. benchmarks -------------------------------------------------------------------
bench=""
# bench NAME LIMIT FEN DEPTH REPEAT [GPU_BENCH_FLAGS...]: gpu_bench on the GPU.
bench() {
  local name=$1 limit=$2 fen=$3 depth=$4 repeat=$5 rc line
  shift 5
  device_step "bench_$name" "$limit" "./$BUILD/gpu_bench" --name "$name" --backend gpu --fen "$fen" --depth "$depth" \
    --repeat "$repeat" --expected-from bench/data/perft_targets.epd "$@"
  rc=$?
  [ $rc -eq $SKIP ] && return 0
  line=$(grep -E '^\{' "$logs/bench_$name.log" 2>/dev/null | tail -1)
  if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
    bench+="${bench:+, }$line"
  else
    failed=1
    bench+="${bench:+, }{\"name\": $(json_str "$name"), \"depth\": $depth, \"status\": $rc, \"error\": $(json_str "$(tail -3 "$logs/bench_$name.log" 2>/dev/null)")}"
  fi
}
# checked NAME STATUS MATCH RESULT_JSON: a CLI benchmark's record.
runs=""
checked() {
  runs+="${runs:+, }{\"name\": $(json_str "$1"), \"status\": $2, \"match\": $3, \"result\": ${4:-null}}"
  [ "$2" -eq 0 ] && [ "$3" = true ] || failed=1
}
# cli_run NAME LIMIT EXPECTED PERFTIDE_ARGS...: perftide perft --json, its nodes against EXPECTED.
cli_run() {
  local name=$1 limit=$2 expected=$3 rc line nodes
  shift 3
  device_step "$name" "$limit" "./$BUILD/perftide" "$@" --backend gpu --json --quiet
  rc=$?
  [ $rc -eq $SKIP ] && return 0
  line=$(grep -E '^\{' "$logs/$name.log" | tail -1)
  nodes=$(echo "$line" | grep -o '"nodes": "*[0-9]*' | head -1 | grep -o '[0-9]*$')
  checked "$name" "$rc" "$([ "$nodes" = "$expected" ] && echo true || echo false)" "$line"
}

# Many small calls in one process: the cost of a call once the memory is kept.
bench start_perft5_x100 30 "$START" 5 100
# Raw throughput: no tables, no duplicate removal; best of two calls (the
# first also grows the kept arena to what the call plans).
bench start_perft9_raw 60 "$START" 9 2 --no-dedup
bench kiwipete_perft7_raw 40 "$KIWIPETE" 7 2 --no-dedup
# The other GPU paths: the Thrust frontier (A083276 ply 7) and the statistics leaf (GCT's row).
device_step unique_ply7 60 "./$BUILD/perftide" unique --depth 7 --backend gpu --json
rc=$?
if [ $rc -ne $SKIP ]; then
  got=$(grep -o '"distinct": [0-9]*' "$logs/unique_ply7.log" | tail -1 | grep -o '[0-9]*$')
  want=$(awk '$1 == 7 {print $2}' tests/data/unique/a083276.txt)
  checked unique_ply7 "$rc" "$([ -n "$got" ] && [ "$got" = "$want" ] && echo true || echo false)" \
    "{\"distinct\": ${got:-null}, \"a083276\": $want}"
fi
# stats_run NAME LIMIT PERFTIDE_ARGS...: perft --stats --depth 7 on the GPU, every column against GCT's row.
stats_run() {
  local name=$1 limit=$2 rc verdict
  shift 2
  device_step "$name" "$limit" "./$BUILD/perftide" perft --stats --depth 7 --backend gpu --json "$@"
  rc=$?
  [ $rc -eq $SKIP ] && return 0
  if command -v python3 > /dev/null; then
    verdict=$(python3 bench/gct_row_check.py "$logs/$name.log" tests/data/perft/grandchesstree_p0_results.json 7 2>&1)
    checked "$name" "$rc" "$([ "${verdict%% *}" = match: ] && echo true || echo false)" "$(json_str "$verdict")"
  else
    runs+="${runs:+, }{\"name\": \"$name\", \"status\": $rc, \"match\": null, \"result\": \"no python3 to compare with the GCT row\"}"
  fi
}
stats_run stats_depth7 40
# The same row through the deep engine: 400 work units of 5 plies, each a device statistics call.
stats_run stats_units_depth7 40 --split 2 --quiet
# Deep runs with tables: perft 11, and perft 12 when the budget leaves room.
cli_run deep_perft11_tables 80 2097651003696806 perft --depth 11
if [ "$(left)" -ge 320 ]; then
  cli_run deep_perft12_tables 310 62854969236701747 perft --depth 12
else
  skipped deep_perft12_tables "$(left) s left of the budget; perft 12 needs about 300 (raise DEVICE_CHECK_BUDGET)"
fi

# --- report ----------------------------------------------------------------------
report="$out/device_check_$stamp.json"
{
  printf '{"kind": "device_check", "date": %s, "commit": %s, "commit_source": %s, "uncommitted_changes": %s,\n' \
    "$(json_str "$stamp")" "$(json_str "$commit")" "$(json_str "$commit_source")" "$dirty"
  printf ' "gpu": %s, "device": %s, "nvcc": %s, "host_cpus": %s, "budget_s": %s,\n' "$(json_str "$gpu_info")" \
    "$($have_gpu && echo true || echo false)" "$(json_str "$nvcc_version")" "$(nproc)" "$BUDGET"
  printf ' "steps": [%s],\n' "$steps"
  printf ' "smoke": {"status": %s}, "sanitizer_note": %s,\n' "$(status_json "$smoke_status")" "$(json_str "$sanitizer_note")"
  printf ' "gpu_tests": {"status": %s, "summary": %s},\n' "$(status_json "$tests_status")" "$(json_str "$tests_summary")"
  printf ' "bench": [%s],\n' "$bench"
  printf ' "checked_runs": [%s],\n' "$runs"
  printf ' "elapsed_s": %s, "ok": %s}\n' "$(( $(date +%s) - start ))" "$([ $failed -eq 0 ] && echo true || echo false)"
} > "$report"
# --- 7. one screen: every step's status, every count's match, the per-call cost.
{
  echo "device_check summary ($gpu_info; perftide ${commit:0:12} from $commit_source; $(( $(date +%s) - start )) s of $BUDGET):"
  echo "$steps" | grep -o '"name": "[^"]*", "status": [^,}]*' | sed 's/"name": "\([^"]*\)", "status": \(.*\)/  \1: \2/'
  [ -n "$sanitizer_note" ] && echo "  $sanitizer_note"
  echo "  gpu tests: $tests_summary"
  echo "$bench" | grep -o '"name": "[^"]*"[^}]*"match": [a-z]*' | sed 's/"name": "\([^"]*\)".*"match": \(.*\)/  count \1: match \2/'
  echo "$bench" | grep -o '"name": "start_perft5_x100"[^}]*' | grep -o '"ms_per_call": [0-9.e+-]*' | sed 's/^/  perft 5 x100: /'
  echo "$runs" | grep -o '"name": "[^"]*", "status": [0-9]*, "match": [a-z]*' | sed 's/"name": "\([^"]*\)", "status": \([0-9]*\), "match": \(.*\)/  \1: status \2, match \3/'
  echo "  overall: $([ $failed -eq 0 ] && echo ok || echo FAILED)"
} | tee "$logs/summary.txt" >&2
echo "device_check: wrote $report (logs in $logs)" >&2
cat "$report"
exit $failed
