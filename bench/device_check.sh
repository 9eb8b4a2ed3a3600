#!/usr/bin/env bash
# Device check for a machine with one NVIDIA GPU (an H100 or H200: compute
# capability 9.0, CUDA 13, CMake, Ninja; no network, no CLI11, GoogleTest or
# nlohmann-json packages). Run from anywhere after bench/prepare_device.sh
# has filled .deps/ (the device gets the working tree without .git).
#
# What comes back from a device call is what is under $OUT: at most 8 files,
# none more than two folders down. So $OUT gets exactly three files, each
# rewritten at the end of every step (a run cut off midway still returns
# every finished step) and closed by a trap on EXIT, TERM and INT:
#   device_check.json         every step: status ok, failed, skipped (with its
#                             reason) or interrupted; seconds, estimate,
#                             limit; its result (counts, timings);
#   device_check_logs.tar.gz  every step's log (and the ptxas report);
#   device_check_summary.txt  one screen.
# Work files stay in a temporary folder; without OUT the three files go to
# results/device_check_<date>/.
#
# Budget: DEVICE_CHECK_BUDGET seconds (default 300) for the whole check,
# build included. A step starts only if its estimate fits in what is left
# (less 5 s kept for packing); else it is recorded "skipped" with "needs ~N s,
# M s left" and the next step is tried. A started step is cut off at its
# limit (or what is left): that is a failure. The exit status is the number
# of failed steps (0: all good; 128+signal when the check itself was ended).
#
# Steps, in order, with their estimates for an H100 from a cold build (the
# measured figures are from the last device run, an H200 with 16 host cores,
# results/device/2026-12-03-h200/: device_check.json's step seconds and the
# README's side-by-side wall times; "guess" where nothing was measured):
#   info                     2 s  GPU, driver, nvcc, commit (measured: ~0 s)
#   configure               15 s  CMAKE_CUDA_ARCHITECTURES=90 (measured 14 s)
#   build                  110 s  perftide, gpu_bench, test_gpu_backend only
#                                 (measured 96 s; the kernels grew since)
#   smoke                    5 s  start perft 5 divide, GPU against CPU line by
#                                 line, PERFTIDE_SYNC_LAUNCHES=1 (measured 1 s)
#   per_call                10 s  100 start perft 5 calls in one process, ms per
#                                 call (guess: the memory is now kept between
#                                 calls; it was 0.33 s a call then)
#   raw_start_perft9        15 s  gpu_bench, no tables, no duplicate removal,
#                                 best of 2 (perft 8 took 0.5 s so: ~30x that)
#   raw_kiwipete_perft7      8 s  the same for Kiwipete (measured 0.6 s a call
#                                 with duplicate removal)
#   deep_perft11            55 s  perft 11 with the automatic tables (measured
#                                 39.4 s on the H200; the H100's memory is slower)
#   stats_perft7            10 s  perft --stats 7 against the Grand Chess Tree
#                                 row (guess)
#   unique_ply7             15 s  unique 7 against A083276 (guess)
#   gpu_tests               90 s  the `gpu` ctest label (guess: it ran past
#                                 120 s before its suite sweeps were sampled
#                                 to every 4th entry)
#   memcheck_*, racecheck_*  8 / 10 s each: compute-sanitizer on tiny runs of
#                                 the small-arena test, duplicate removal (start
#                                 perft 6), the tables (perft 6 --split 2 --hash
#                                 64) and statistics rows with tables (perft
#                                 --stats 5 --split 2 --hash 64); last, so that a
#                                 sanitizer's fault or hang costs no other step
#                                 (memcheck measured 1 s and 0 s)
# The estimates add up to about 410 s. They err on the safe side (the steps
# measured on the H200 took well under theirs), and each step is weighed
# against the time actually left, so at the default 300 s the later steps
# get what the earlier ones left unused; DEVICE_CHECK_BUDGET=540 (with a
# device call's timeout_s of 600) leaves room for every step. A sanitizer that is missing or cannot attach is
# "skipped" with its reason, not a failure. Perft 12: bench/device_deep.sh.
#
# Host mode (DEVICE_CHECK_HOST=1, or when nvidia-smi finds no GPU): every step
# runs on the host pipeline standing in for the device (PERFTIDE_HOST_GPU=1)
# at small sizes (perft 4-6, unique ply 5, two gpu tests run from their
# binary; a few seconds in all), with the build in DEVICE_CHECK_BUILD, so
# that its commands, logs, JSON and packing are exercised without a GPU; the
# sanitizer steps run their commands without the sanitizer unless
# DEVICE_CHECK_SANITIZER names one. tests/device/check_device_script.py runs
# it this way in CI.
#
# Environment: DEVICE_CHECK_BUDGET (seconds), DEVICE_CHECK_ARCH (90),
# DEVICE_CHECK_BUILD (build folder, default build), DEVICE_CHECK_SKIP_BUILD=1
# (reuse it), DEVICE_CHECK_HOST=1, DEVICE_CHECK_SANITIZER (path).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

BUDGET=${DEVICE_CHECK_BUDGET:-300}
ARCH=${DEVICE_CHECK_ARCH:-90}
BUILD=${DEVICE_CHECK_BUILD:-build}  # bench/device_deep.sh uses build/perftide
RESERVE=5                           # seconds kept for the last packing
SKIP=77                             # a step function's "skipped" status
start_ms=$(( $(date +%s%N) / 1000000 ))
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${OUT:-results/device_check_$stamp}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/device_check.XXXXXX")
mkdir -p "$work/logs"
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
export BUILD ARCH SKIP work

START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
declare -A START_NODES=([4]=197281 [5]=4865609 [6]=119060324 [7]=3195901860
  [9]=2439530234167 [11]=2097651003696806)
declare -A KIWIPETE_NODES=([4]=4085603 [7]=374190009323)

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
elapsed() { echo $(( ($(now_ms) - start_ms) / 1000 )); }
left() { echo $(( BUDGET - $(elapsed) )); }

json_str() {  # a JSON string literal of $1
  local s
  s=$(printf '%s' "$1" | LC_ALL=C tr -cd '\11\12\40-\176')  # printable ASCII, tabs, newlines
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/ }
  printf '"%s"' "$s"
}

# --- what is measured, and on what ---------------------------------------------
# perftide's own commit: git's only when this folder is itself a work tree's
# root (not a folder inside another repository), else .deps/commit, which
# bench/prepare_device.sh wrote from perftide's work tree.
root=$(pwd -P)
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || true)
commit=unknown dirty=false commit_source=none
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
nvcc_version=$(nvcc --version 2>/dev/null | grep -i release | head -1)
host=false
if [ "${DEVICE_CHECK_HOST:-0}" = 1 ] || ! $have_gpu; then
  host=true
  export PERFTIDE_HOST_GPU=1
fi
mode=$($host && echo host || echo device)

# --- the record: rewritten after every step ---------------------------------------
steps=()         # one JSON object per finished step
lines=()         # its line in the summary
failures=0
current=""       # the step running now, for the trap
current_pid=""
current_t0=0
ended_by=""

write_json() {  # write_json COMPLETE: the whole record, replaced atomically
  local list="" s
  for s in "${steps[@]}"; do list+="${list:+,$'\n'  }$s"; done
  {
    printf '{"kind": "device_check", "mode": "%s", "date": %s, "commit": %s, "commit_source": %s,\n' \
      "$mode" "$(json_str "$stamp")" "$(json_str "$commit")" "$(json_str "$commit_source")"
    printf ' "uncommitted_changes": %s, "gpu": %s, "device": %s, "nvcc": %s, "host_cpus": %s,\n' \
      "$dirty" "$(json_str "$gpu_info")" "$have_gpu" "$(json_str "$nvcc_version")" "$(nproc)"
    printf ' "budget_s": %s, "elapsed_s": %s, "complete": %s, "ended_by": %s,\n' \
      "$BUDGET" "$(elapsed)" "$1" "$(json_str "${ended_by:-running}")"
    printf ' "steps": [\n  %s],\n' "$list"
    printf ' "failures": %s, "ok": %s}\n' "$failures" "$([ "$failures" -eq 0 ] && $1 && echo true || echo false)"
  } > "$out/.device_check.json.part" && mv -f "$out/.device_check.json.part" "$out/device_check.json"
}

write_summary() {
  {
    echo "device_check ($mode mode; $gpu_info; perftide ${commit:0:12} from $commit_source)"
    echo "$(elapsed) s of $BUDGET; ${ended_by:-running}; $failures failed"
    printf '%s\n' "${lines[@]}"
    if [ "$failures" -gt 0 ]; then echo "overall: FAILED"
    elif [ "${ended_by:-running}" != finished ]; then echo "overall: no failure so far (${ended_by:-running})"
    else echo "overall: ok"; fi
  } > "$out/.device_check_summary.txt.part" && mv -f "$out/.device_check_summary.txt.part" "$out/device_check_summary.txt"
}

pack_logs() {
  tar -czf "$out/.device_check_logs.tar.gz.part" -C "$work" logs 2>/dev/null &&
    mv -f "$out/.device_check_logs.tar.gz.part" "$out/device_check_logs.tar.gz"
}

record() {  # record NAME STATUS SECONDS ESTIMATE LIMIT REASON RESULT_JSON
  local entry
  entry="{\"name\": $(json_str "$1"), \"status\": \"$2\", \"seconds\": $3, \"estimate_s\": $4, \"limit_s\": $5"
  [ -n "$6" ] && entry+=", \"$([ "$2" = ok ] && echo note || echo reason)\": $(json_str "$6")"
  if [ -f "$work/logs/$1.log" ]; then entry+=", \"log\": \"logs/$1.log\""; else entry+=", \"log\": null"; fi
  entry+=", \"result\": ${7:-null}}"
  steps+=("$entry")
  local said=$6  # the reason of a step that did not pass, else its headline
  if [ "$2" = ok ] && [ -n "$7" ]; then
    said=$(printf '%s' "$7" | sed -n 's/.*"headline": "\([^"]*\)".*/\1/p')
    [ -z "$said" ] && said=$6
  fi
  said=${said//$'\n'/ }
  lines+=("$(printf '  %-26s %-11s %6s s  %s' "$1" "$2" "$3" "${said:0:90}")")
  last_status=$2
  [ "$2" = failed ] && failures=$((failures + 1))  # an interrupted step is not its own failure
  write_json false
  write_summary
  pack_logs
  echo "device_check: $1 -> $2 (${3} s${6:+; $6})" >&2
}

finish() {  # the trap: close the record whatever ended the check
  local sig=$1 rc=$?
  trap - EXIT TERM INT
  if [ -n "$current" ]; then
    [ -n "$current_pid" ] && kill -TERM "$current_pid" 2>/dev/null && wait "$current_pid" 2>/dev/null
    local secs; secs=$(awk -v a="$current_t0" -v b="$(now_ms)" 'BEGIN {printf "%.1f", (b - a) / 1000}')
    ended_by=${sig:-exit}
    record "$current" interrupted "$secs" 0 0 "the check was ended by $ended_by while this step ran" null
    current=""
  fi
  if [ -z "$ended_by" ]; then
    if [ -n "$sig" ]; then ended_by=$sig
    elif ${all_run:-false}; then ended_by=finished
    else ended_by="an error in the script (status $rc)"; fi
  fi
  write_json "$([ "$ended_by" = finished ] && echo true || echo false)"
  write_summary
  pack_logs
  rm -rf "$work"
  cat "$out/device_check_summary.txt" >&2
  case $sig in
    TERM) exit 143 ;;
    INT) exit 130 ;;
  esac
  [ "$ended_by" = finished ] && exit $((failures > 100 ? 100 : failures))
  exit "$rc"
}
trap 'finish TERM' TERM
trap 'finish INT' INT
trap 'finish ""' EXIT

# step NAME ESTIMATE LIMIT FUNCTION [ARGS...]: runs FUNCTION in a child bash
# when ESTIMATE fits in the budget, under min(LIMIT, budget left) seconds,
# its output in logs/NAME.log. FUNCTION returns 0 (ok), $SKIP (skipped, the
# reason in $STEP_NOTE) or anything else (failed); it may write its result
# as a JSON object to $STEP_RESULT and a note to $STEP_NOTE.
step() {
  local name=$1 estimate=$2 limit=$3 fn=$4
  shift 4
  local avail=$(( $(left) - RESERVE ))
  if [ -n "${needs_build:-}" ] && ! $built; then
    record "$name" skipped 0 "$estimate" "$limit" "no binaries to run (see the build steps)" null; return
  fi
  if [ "$estimate" -gt "$avail" ]; then
    record "$name" skipped 0 "$estimate" "$limit" "needs ~$estimate s, $avail s left" null; return
  fi
  [ "$limit" -gt "$avail" ] && limit=$avail
  export STEP_RESULT="$work/$name.result" STEP_NOTE="$work/$name.note" STEP_LOG="$work/logs/$name.log"
  rm -f "$STEP_RESULT" "$STEP_NOTE"
  current=$name current_t0=$(now_ms)
  # In the background, so that a signal to this script is handled at once.
  timeout -k 5 "$limit" bash -c "$fn \"\$@\"" "$fn" "$@" > "$STEP_LOG" 2>&1 &
  current_pid=$!
  wait "$current_pid"
  local rc=$?
  current_pid=""
  local secs note="" result="" status
  secs=$(awk -v a="$current_t0" -v b="$(now_ms)" 'BEGIN {printf "%.1f", (b - a) / 1000}')
  [ -s "$STEP_NOTE" ] && note=$(head -c 600 "$STEP_NOTE")
  [ -s "$STEP_RESULT" ] && result=$(cat "$STEP_RESULT")
  case $rc in
    0) status=ok ;;
    "$SKIP") status=skipped ;;
    124|137) status=failed; note="cut off at its limit of $limit s${note:+; $note}" ;;
    *) status=failed; note="exit status $rc${note:+; $note}"
       [ -s "$STEP_LOG" ] && note+="; log ends: $(tail -c 300 "$STEP_LOG")" ;;
  esac
  current=""
  record "$name" "$status" "$secs" "$estimate" "$limit" "$note" "$result"
  return 0
}

# --- helpers the step functions use (they run in a child bash) ------------------
note() { printf '%s\n' "$*" >> "$STEP_NOTE"; }
result() { printf '%s' "$1" > "$STEP_RESULT"; }
nodes_of() {  # nodes_of FILE: "nodes" of the last JSON line
  grep -E '^\{' "$1" | tail -1 | grep -o '"nodes": "*[0-9]*' | head -1 | grep -o '[0-9]*$'
}
# check_nodes FILE EXPECTED NAME: the result object of a JSON run, and its status.
check_nodes() {
  local got line match
  got=$(nodes_of "$1")
  line=$(grep -E '^\{' "$1" | tail -1)
  [ "$got" = "$2" ] && match=true || match=false
  result "{\"expected\": \"$2\", \"nodes\": \"${got:-none}\", \"match\": $match, \"headline\": $(json_str "$3 ${got:-no count} ($($match && echo match || echo MISMATCH))"), \"run\": ${line:-null}}"
  $match || { note "$3: got ${got:-no count}, want $2"; return 1; }
}
perftide() { "$BUILD/perftide" "$@"; }
gpu_bench() {
  local b="$BUILD/gpu_bench"
  [ -x "$b" ] || b="$BUILD/bench/gpu_bench"
  "$b" "$@"
}

# --- the steps -----------------------------------------------------------------
step_info() {
  echo "gpu: $GPU_INFO"; nvidia-smi 2>&1 || true
  echo "nvcc: $NVCC_VERSION"; command -v cmake ninja compute-sanitizer python3 || true
  echo "commit: $COMMIT ($COMMIT_SOURCE)"; uname -a; nproc
  result "{\"headline\": \"$MODE mode, $(nproc) host cores\"}"
}

step_configure() {
  local deps=()
  [ -f .deps/cli11/CLI/CLI.hpp ] && deps+=("-DCLI11_INCLUDE_DIR=$PWD/.deps/cli11")
  [ -f .deps/googletest/CMakeLists.txt ] && deps+=("-DPERFTIDE_GTEST_SOURCE_DIR=$PWD/.deps/googletest")
  [ -f .deps/nlohmann-json/nlohmann/json.hpp ] && deps+=("-DNLOHMANN_JSON_INCLUDE_DIR=$PWD/.deps/nlohmann-json")
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
    -DPERFTIDE_PTXAS_VERBOSE=ON "${deps[@]}"
}

step_build() {
  cmake --build "$BUILD" -j "$(nproc)" --target perftide gpu_bench test_gpu_backend || return 1
  grep -E "ptxas info|bytes stack frame" "$STEP_LOG" > "$work/logs/ptxas_sm$ARCH.txt" || true
}

step_smoke() {  # step_smoke DEPTH
  local g="$work/logs/smoke_gpu.txt" c="$work/logs/smoke_cpu.txt"
  PERFTIDE_SYNC_LAUNCHES=1 perftide perft --depth "$1" --divide --backend gpu > "$g" || return 1
  perftide perft --depth "$1" --divide --backend cpu > "$c" || return 1
  diff "$c" "$g" || { note "the GPU's divide differs from the CPU's"; return 1; }
  grep -q "Nodes searched: $2\$" "$g" || { note "no 'Nodes searched: $2'"; return 1; }
  result "{\"headline\": \"perft $1 divide: GPU = CPU, $2 nodes\"}"
}

# step_bench NAME FEN DEPTH REPEAT EXPECTED [GPU_BENCH_FLAGS...]: gpu_bench on the GPU.
step_bench() {
  local name=$1 fen=$2 depth=$3 repeat=$4 want=$5 line got match ms
  shift 5
  gpu_bench --name "$name" --backend gpu --fen "$fen" --depth "$depth" --repeat "$repeat" "$@" || return 1
  line=$(grep -E '^\{' "$STEP_LOG" | tail -1)
  got=$(nodes_of "$STEP_LOG")
  ms=$(echo "$line" | grep -o '"ms_per_call": [0-9.e+-]*' | grep -o '[0-9.e+-]*$')
  [ "$got" = "$want" ] && match=true || match=false
  result "{\"headline\": \"perft $depth x$repeat: $([ "$match" = true ] && echo match || echo MISMATCH), ${ms:-?} ms a call\", \"match\": $match, \"bench\": ${line:-null}}"
  $match || { note "got ${got:-no count}, want $want"; return 1; }
}

step_perft() {  # step_perft EXPECTED PERFTIDE_ARGS...: perftide perft --json on the GPU
  local want=$1
  shift
  perftide perft "$@" --backend gpu --json --quiet || return 1
  check_nodes "$STEP_LOG" "$want" "perft $*:"
}

# check_gct FILE DEPTH: a --stats JSON run against the Grand Chess Tree row.
check_gct() {
  local verdict match
  if ! command -v python3 > /dev/null; then
    note "no python3 to compare with the Grand Chess Tree row"
    result "{\"headline\": \"not compared\"}"
    return 0
  fi
  verdict=$(python3 bench/gct_row_check.py "$1" tests/data/perft/grandchesstree_p0_results.json "$2" 2>&1)
  [ "${verdict%% *}" = match: ] && match=true || match=false
  result "{\"headline\": $(json_str "depth $2: ${verdict:0:200}"), \"match\": $match}"
  $match || { note "${verdict:0:300}"; return 1; }
}

step_stats() {  # step_stats DEPTH [PERFTIDE_ARGS...]: --stats against the Grand Chess Tree row
  local depth=$1
  shift
  perftide perft --stats --depth "$depth" --backend gpu --json "$@" || return 1
  check_gct "$STEP_LOG" "$depth"
}

step_unique() {  # step_unique PLY: unique on the GPU against A083276
  local got want
  perftide unique --depth "$1" --backend gpu --json || return 1
  got=$(grep -o '"distinct": [0-9]*' "$STEP_LOG" | tail -1 | grep -o '[0-9]*$')
  want=$(awk -v p="$1" '$1 == p {print $2}' tests/data/unique/a083276.txt)
  result "{\"headline\": \"ply $1: ${got:-none} distinct, A083276 $want\", \"distinct\": ${got:-null}, \"a083276\": $want}"
  [ -n "$got" ] && [ "$got" = "$want" ] || { note "got ${got:-none} distinct, A083276 says $want"; return 1; }
}

step_gpu_tests() {  # step_gpu_tests SECONDS [GTEST_FILTER]: the gpu label (host mode: a few of its tests)
  local summary skips
  if [ -n "${2:-}" ]; then
    "$BUILD/tests/test_gpu_backend" --gtest_filter="$2" || return 1
    summary=$(grep -E '^\[  PASSED  \]' "$STEP_LOG" | tail -1)
  else
    ctest --test-dir "$BUILD" -L '^gpu$' --output-on-failure --timeout "$1" || return 1
    summary=$(grep -E "tests passed|tests failed" "$STEP_LOG" | tail -1)
  fi
  skips=$(grep -c "(Skipped)\|\[  SKIPPED \]" "$STEP_LOG")
  result "{\"headline\": $(json_str "$summary, $skips skipped")}"
  # On the device (or the stand-in) a skipped gpu test means the device was not usable.
  [ "$skips" -eq 0 ] || { note "$skips test(s) skipped: the device was not usable"; return 1; }
}

# step_sanitizer TOOL EXPECTED COMMAND...: COMMAND under compute-sanitizer;
# EXPECTED is its node count (- for a test binary).
step_sanitizer() {
  local tool=$1 want=$2
  shift 2
  if [ -z "$SANITIZER" ]; then
    if [ "$MODE" = device ]; then note "compute-sanitizer not found"; return "$SKIP"; fi
    note "host mode: the command without compute-sanitizer"
    "$@" || return 1
  else
    "$SANITIZER" --tool "$tool" --error-exitcode 9 "$@"
    local rc=$?
    if [ $rc -ne 0 ]; then
      if ! grep -qE 'ERROR SUMMARY: [1-9]' "$STEP_LOG" &&
         grep -qiE "$CANNOT_ATTACH" "$STEP_LOG"; then
        note "compute-sanitizer could not run: $(grep -iE "$CANNOT_ATTACH" "$STEP_LOG" | head -1 | cut -c1-200)"
        return "$SKIP"
      fi
      return 1
    fi
  fi
  case $want in
    -) ;;
    gct:*) check_gct "$STEP_LOG" "${want#gct:}" || return 1 ;;
    *) check_nodes "$STEP_LOG" "$want" "$tool:" || return 1 ;;
  esac
  [ -s "$STEP_RESULT" ] || result "{\"headline\": $(json_str "$(grep -E 'ERROR SUMMARY' "$STEP_LOG" | tail -1)")}"
}
export -f note result nodes_of check_nodes check_gct perftide gpu_bench json_str
export -f step_info step_configure step_build step_smoke step_bench step_perft step_stats step_unique \
  step_gpu_tests step_sanitizer

SANITIZER=${DEVICE_CHECK_SANITIZER:-}
if [ -z "$SANITIZER" ] && ! $host; then
  SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
fi
# What compute-sanitizer says when it cannot run at all (not an error it found).
CANNOT_ATTACH='unable to attach|not supported|no attachable|could not (start|launch|attach)|failed to (start|launch|attach)'
export SANITIZER CANNOT_ATTACH MODE=$mode GPU_INFO=$gpu_info NVCC_VERSION=$nvcc_version COMMIT=$commit COMMIT_SOURCE=$commit_source
write_json false; write_summary; pack_logs

# --- the run ---------------------------------------------------------------------
step info 2 20 step_info
built=true
if [ "${DEVICE_CHECK_SKIP_BUILD:-0}" = 1 ] || $host; then
  why="DEVICE_CHECK_SKIP_BUILD=1"; $host && why="host mode"
  record configure skipped 0 15 0 "$why: $BUILD reused" null
  record build skipped 0 110 0 "$why: $BUILD reused" null
  for b in perftide tests/test_gpu_backend gpu_bench; do
    [ -x "$BUILD/$b" ] || [ -x "$BUILD/bench/$b" ] || { built=false; missing+=" $BUILD/$b"; }
  done
  $built || record binaries failed 0 0 0 "missing:$missing" null
else
  step configure 15 90 step_configure
  [ "$last_status" = ok ] || built=false
  if $built; then
    step build 110 300 step_build
    [ "$last_status" = ok ] || built=false
  fi
fi
needs_build=1
if $host; then  # small sizes on the stand-in
  smoke=4 call=4 raw=5 kiwi=4 stats=5 uniq=5 dedup=6
  deep=(6 --split 2 --hash 16) tables=(5 --split 2 --hash 16) stats_tables=(4 --split 2 --hash 16)
  tests_filter="GpuBackend.SmallArenaSplitsAndAgrees:GpuBackend.HostPliesAgree"
else
  smoke=5 call=5 raw=9 kiwi=7 stats=7 uniq=7 dedup=6
  deep=(11) tables=(6 --split 2 --hash 64) stats_tables=(5 --split 2 --hash 64)
  tests_filter=""
fi
step smoke 5 30 step_smoke "$smoke" "${START_NODES[$smoke]}"
step per_call 10 40 step_bench per_call_perft${call}_x100 "$START" "$call" 100 "${START_NODES[$call]}"
step raw_start_perft$raw 15 45 step_bench raw_start_perft$raw "$START" "$raw" 2 "${START_NODES[$raw]}" --no-dedup
step raw_kiwipete_perft$kiwi 8 30 step_bench raw_kiwipete_perft$kiwi "$KIWIPETE" "$kiwi" 2 "${KIWIPETE_NODES[$kiwi]}" --no-dedup
step deep_perft${deep[0]} 55 90 step_perft "${START_NODES[${deep[0]}]}" --depth "${deep[@]}"
step stats_perft$stats 10 40 step_stats "$stats"
step unique_ply$uniq 15 60 step_unique "$uniq"
step gpu_tests 90 120 step_gpu_tests 110 "$tests_filter"
small_arena=("$BUILD/tests/test_gpu_backend" --gtest_filter=GpuBackend.SmallArenaSplitsAndAgrees)
for tool in memcheck racecheck; do
  est=$([ $tool = memcheck ] && echo 8 || echo 10)
  step ${tool}_small_arena "$est" 60 step_sanitizer $tool - "${small_arena[@]}"
  step ${tool}_dedup "$est" 60 step_sanitizer $tool "${START_NODES[$dedup]}" \
    "$BUILD/perftide" perft --depth "$dedup" --backend gpu --json
  step ${tool}_tables "$est" 60 step_sanitizer $tool "${START_NODES[${tables[0]}]}" \
    "$BUILD/perftide" perft --depth "${tables[@]}" --backend gpu --json --quiet
  step ${tool}_stats_tables "$est" 60 step_sanitizer $tool "gct:${stats_tables[0]}" \
    "$BUILD/perftide" perft --stats --depth "${stats_tables[@]}" --backend gpu --json --quiet
done
all_run=true
# The end: the EXIT trap writes the closed record, the summary and the logs.
