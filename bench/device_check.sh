#!/usr/bin/env bash
# Device check for a machine with one NVIDIA GPU (made for an H200: compute
# capability 9.0, CUDA 13, CMake, Ninja; no network, no apt, no CLI11,
# GoogleTest or nlohmann-json packages). Run from the repository root after
# bench/prepare_device.sh has filled .deps/. The most telling steps first:
#   1. the GPU's name and memory, and nvcc's version;
#   2. configure (CMAKE_CUDA_ARCHITECTURES=90) and build with the carried deps;
#   3. a smoke run with GPERFT_SYNC_LAUNCHES=1 (a fault names its kernel):
#      start position perft 5 with divide on the GPU, compared line by line
#      with the CPU engine;
#   4. compute-sanitizer memcheck, then racecheck, on a small-arena test and
#      on a statistics run (skipped with a note when the tool is missing);
#   5. the tests labelled gpu;
#   6. the benchmarks: start position perft 7, 8, 9 and Kiwipete perft 6, 7
#      (no tables), the CPU engine at start perft 7 beside them, start perft 8
#      without duplicate removal and with device tables, and the deep start
#      position perft 10 with tables against its published count;
#   7. with time to spare, other variants of the leaf kernel (launch shapes,
#      the interleaved generate-and-count sink), timed at start perft 8;
# then a one-screen summary (each step's status, each count's match) and one
# JSON file (GPU name, commit, step statuses, tests, benchmark results) plus
# logs under $OUT, or results/ when OUT is unset.
# Every step has a time limit and the whole run a budget (default 450 s), so
# it ends in under 8 minutes whatever a step does. Exit status: 0 when the
# build, the tests and every benchmark count were good, 1 otherwise. In the
# JSON, gpu_tests.status is ctest's, or 3 when tests were skipped (no usable
# device), 124 when the step ran out of time.
set -uo pipefail
cd "$(dirname "$0")/.."

BUDGET=${DEVICE_CHECK_BUDGET:-450}
ARCH=${DEVICE_CHECK_ARCH:-90}
BUILD=${DEVICE_CHECK_BUILD:-build}  # bench/device_deep.sh uses build/gperft
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

# step NAME LIMIT CMD...: runs CMD under min(LIMIT, budget left - 15) seconds,
# output to $logs/NAME.log; records name, exit status and seconds.
step() {
  local name=$1 limit=$2
  shift 2
  local budget_left=$(( $(left) - 15 ))
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

# --- what is measured, and on what -----------------------------------------
commit=$(git rev-parse HEAD 2>/dev/null || true)
dirty=false
if [ -n "$commit" ]; then
  [ -n "$(git status --porcelain 2>/dev/null)" ] && dirty=true
elif [ -f .deps/commit ]; then
  read -r commit dirty < .deps/commit
else
  commit=unknown
fi
if command -v nvidia-smi > /dev/null; then
  gpu_info=$(nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | head -1)
else
  gpu_info="nvidia-smi not found"
fi
nvcc_version=$(nvcc --version 2>/dev/null | grep -i release | head -1)

# --- build -------------------------------------------------------------------
deps=()
[ -f .deps/cli11/CLI/CLI.hpp ] && deps+=("-DCLI11_INCLUDE_DIR=$PWD/.deps/cli11")
[ -f .deps/googletest/CMakeLists.txt ] && deps+=("-DGPERFT_GTEST_SOURCE_DIR=$PWD/.deps/googletest")
[ -f .deps/nlohmann-json/nlohmann/json.hpp ] && deps+=("-DNLOHMANN_JSON_INCLUDE_DIR=$PWD/.deps/nlohmann-json")
built=false
if step configure 90 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
      -DGPERFT_PTXAS_VERBOSE=ON "${deps[@]}" &&
   step build 270 cmake --build "$BUILD" -j "$(nproc)" --target gperft gpu_bench test_gpu_backend test_cli; then
  built=true
fi
grep -E "ptxas info|bytes stack frame" "$logs/build.log" > "$logs/ptxas_sm$ARCH.txt" 2>/dev/null || true

# --- smoke run: the first kernels, each synchronised ---------------------------
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
smoke_status=-1
if $built; then
  step smoke 60 bash -c "GPERFT_SYNC_LAUNCHES=1 ./$BUILD/gperft perft --depth 5 --divide --backend gpu > '$logs/smoke_gpu.txt' &&
    ./$BUILD/gperft perft --depth 5 --divide --backend cpu > '$logs/smoke_cpu.txt' &&
    diff '$logs/smoke_cpu.txt' '$logs/smoke_gpu.txt' && grep -q 'Nodes searched: 4865609' '$logs/smoke_gpu.txt'"
  smoke_status=$?
else
  skipped smoke "the build failed"
fi
[ "$smoke_status" -eq 0 ] || failed=1

# --- compute-sanitizer ---------------------------------------------------------
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
sanitizer_note=""
if [ -z "$sanitizer" ]; then
  sanitizer_note="compute-sanitizer not found: memcheck and racecheck skipped"
  skipped sanitizer "$sanitizer_note"
elif ! $built; then
  skipped sanitizer "the build failed"
else
  for tool in memcheck racecheck; do
    step "sanitizer_${tool}_small_arena" 90 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "./$BUILD/tests/test_gpu_backend" --gtest_filter=GpuBackend.SmallArenaSplitsAndAgrees || failed=1
    step "sanitizer_${tool}_stats" 60 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "./$BUILD/gperft" perft --stats --depth 3 --backend gpu || failed=1
  done
fi

# --- tests ---------------------------------------------------------------------
tests_summary="not run"
tests_status=-1
if $built; then
  step gpu_tests 150 ctest --test-dir "$BUILD" -L '^gpu$' --output-on-failure --timeout 140
  tests_status=$?
  tests_summary=$(grep -E "tests passed|tests failed" "$logs/gpu_tests.log" | tail -1)
  skipped=$(grep -c "(Skipped)" "$logs/gpu_tests.log")
  if [ "$skipped" -gt 0 ]; then  # on the device machine a skip means the device was not usable
    tests_summary+=", $skipped skipped (see gpu_tests.log)"
    [ "$tests_status" -eq 0 ] && tests_status=3
  fi
else
  skipped gpu_tests "the build failed"
fi
[ "$tests_status" -eq 0 ] || failed=1

# --- benchmark -----------------------------------------------------------------
bench=""
# bench NAME LIMIT BACKEND FEN DEPTH REPEAT [BUILD_DIR [GPU_BENCH_FLAGS...]]
bench() {
  local name=$1 limit=$2 backend=$3 fen=$4 depth=$5 repeat=$6 dir=${7:-$BUILD} rc
  shift 7 2>/dev/null || shift $#
  step "bench_$name" "$limit" "./$dir/gpu_bench" --name "$name" --backend "$backend" --fen "$fen" --depth "$depth" \
    --repeat "$repeat" --expected-from bench/data/perft_targets.epd "$@"
  rc=$?
  local line
  line=$(grep -E '^\{' "$logs/bench_$name.log" | tail -1)
  if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
    bench+="${bench:+, }$line"
  else
    failed=1
    bench+="${bench:+, }{\"name\": $(json_str "$name"), \"backend\": \"$backend\", \"depth\": $depth, \"status\": $rc, \"error\": $(json_str "$(tail -3 "$logs/bench_$name.log")")}"
  fi
}
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
if $built; then
  bench start_perft7 30 gpu "$START" 7 3
  bench start_perft8 40 gpu "$START" 8 2
  bench kiwipete_perft6 30 gpu "$KIWIPETE" 6 3
  bench kiwipete_perft7 60 gpu "$KIWIPETE" 7 1
  bench start_perft7_cpu_peer 40 cpu "$START" 7 1
  bench start_perft9 100 gpu "$START" 9 1
else
  skipped benchmarks "the build failed"
  failed=1
fi

# --- tables and duplicate removal ---------------------------------------------
# Start position perft 8 without duplicate removal and with automatic device
# tables (one cold run each: tables persist between repeats), beside the
# default above (duplicate removal on, no tables); then the deep perft(10)
# target with automatic tables, work units and the host table, checked
# against the published count.
deep=""
deep_run() {  # deep_run NAME LIMIT DEPTH EXPECTED GPERFT_ARGS...
  local name=$1 limit=$2 depth=$3 expected=$4 rc nodes line
  shift 4
  step "$name" "$limit" "./$BUILD/gperft" perft --backend gpu --depth "$depth" --json --quiet "$@"
  rc=$?
  line=$(grep -E '^\{' "$logs/$name.log" | tail -1)
  nodes=$(echo "$line" | grep -o '"nodes": "*[0-9]*' | grep -o '[0-9]*$')
  [ "$rc" -eq 0 ] && [ "$nodes" = "$expected" ] || failed=1
  deep+="${deep:+, }{\"name\": $(json_str "$name"), \"status\": $rc, \"expected\": \"$expected\", \"match\": $([ "$nodes" = "$expected" ] && echo true || echo false), \"result\": ${line:-null}}"
}
if $built; then
  bench start_perft8_no_dedup 40 gpu "$START" 8 1 "$BUILD" --no-dedup
  bench start_perft8_tables 40 gpu "$START" 8 1 "$BUILD" --hash -1
  deep_run deep_perft10_tables 40 10 69352859712417
fi

# --- leaf kernel variants (only with time to spare) ---------------------------
# The default leaf (move array; 384 threads, 3 blocks per SM: 56 registers,
# some spills on sm_90) against other launch shapes and against the
# interleaved generate-and-count sink, at start position perft 8.
variant() {
  local name=$1 flags=$2
  [ "$(left)" -gt 150 ] || return 0
  step "variant_${name}_configure" 60 cmake -S . -B "$BUILD-$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DGPERFT_TESTS=OFF -DCMAKE_CUDA_FLAGS="$flags" "${deps[@]}" &&
    step "variant_${name}_build" 150 cmake --build "$BUILD-$name" -j "$(nproc)" --target gpu_bench &&
    bench "start_perft8_leaf_$name" 40 gpu "$START" 8 3 "$BUILD-$name"
}
if $built; then
  bench start_perft8_leaf_384x3 40 gpu "$START" 8 3
  variant 256x4 "-DGPERFT_LEAF_BLOCK=256 -DGPERFT_LEAF_MIN_BLOCKS=4"
  variant replies_sink "-DGPERFT_LEAF_REPLIES_SINK=1"
  variant 384x2 "-DGPERFT_LEAF_BLOCK=384 -DGPERFT_LEAF_MIN_BLOCKS=2"
fi

# --- report --------------------------------------------------------------------
report="$out/device_check_$stamp.json"
{
  printf '{"kind": "device_check", "date": %s, "commit": %s, "uncommitted_changes": %s,\n' \
    "$(json_str "$stamp")" "$(json_str "$commit")" "$dirty"
  printf ' "gpu": %s, "nvcc": %s, "host_cpus": %s,\n' "$(json_str "$gpu_info")" "$(json_str "$nvcc_version")" "$(nproc)"
  printf ' "steps": [%s],\n' "$steps"
  printf ' "smoke": {"status": %s}, "sanitizer_note": %s,\n' "$smoke_status" "$(json_str "$sanitizer_note")"
  printf ' "gpu_tests": {"status": %s, "summary": %s},\n' "$tests_status" "$(json_str "$tests_summary")"
  printf ' "bench": [%s],\n' "$bench"
  printf ' "deep": [%s],\n' "$deep"
  printf ' "elapsed_s": %s, "ok": %s}\n' "$(( $(date +%s) - start ))" "$([ $failed -eq 0 ] && echo true || echo false)"
} > "$report"
# One screen: every step's status, and every count's match.
{
  echo "device_check summary ($gpu_info; commit ${commit:0:12}):"
  echo "$steps" | grep -o '"name": "[^"]*", "status": [^,}]*' | sed 's/"name": "\([^"]*\)", "status": \(.*\)/  \1: \2/'
  [ -n "$sanitizer_note" ] && echo "  $sanitizer_note"
  echo "  gpu tests: $tests_summary"
  echo "$bench$deep" | grep -o '"name": "[^"]*"[^}]*"match": [a-z]*' | sed 's/"name": "\([^"]*\)".*"match": \(.*\)/  count \1: match \2/'
  echo "  overall: $([ $failed -eq 0 ] && echo ok || echo FAILED)"
} | tee "$logs/summary.txt" >&2
echo "device_check: wrote $report (logs in $logs)" >&2
cat "$report"
exit $failed
