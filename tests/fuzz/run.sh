#!/usr/bin/env bash
# Builds the parser fuzzers (clang, libFuzzer, ASan+UBSan) in build-fuzz/ and
# runs each for a bounded time: run.sh [seconds per target, default 25].
# Seeds come from the test data; a crash, a sanitizer report, a hang (over
# 10 s on one input) or a failed assertion stops the script with status 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-25}"
build=build-fuzz

cmake -S tests/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j2

# Seed corpora, rebuilt each run from the suites and a few hand-written cases.
corpus="$build/corpus"
rm -rf "$corpus"
mkdir -p "$corpus"/{fen,suite,uci_moves,engine_output,pgn}
n=0
for f in tests/data/perft/*.epd; do
    while IFS= read -r line; do
        case "$line" in '#'*|'') continue ;; esac
        n=$((n + 1))
        printf '%s' "${line%%;*}" >"$corpus/fen/seed$n"
        [ $((n % 16)) -eq 1 ] && printf '%s\ne2e4 e7e5 g1f3 b8c6 e1g1' "${line%%;*}" >"$corpus/uci_moves/seed$n"
    done <"$f"
done
for f in tests/data/perft/*.epd tests/data/perft/*.perft; do head -c 2000 "$f" >"$corpus/suite/$(basename "$f")"; done
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ne2e4 d7d5 e4d5 g8f6 f1b5 c7c6 d5c6 d8d2 b1d2' \
    >"$corpus/uci_moves/game"
printf 'info string ready\na2a3: 380\nb7b8q: 2\ne1g1: 41\n\nNodes searched: 423\n\n' >"$corpus/engine_output/divide"
printf 'Nodes searched: 0\n' >"$corpus/engine_output/mate"
cp tests/data/pgn/famous_games.pgn "$corpus/pgn/"
head -c 4000 tests/data/pgn/random_games.pgn >"$corpus/pgn/random"
head -c 4000 tests/data/pgn/timeouts.pgn >"$corpus/pgn/timeouts"

status=0
for target in fen reference_fen suite uci_moves engine_output pgn; do
    seeds="$corpus/$target"
    [ -d "$seeds" ] || seeds="$corpus/fen"  # the reference reads FENs too
    work="$build/work_$target"
    rm -rf "$work" && mkdir -p "$work" && cp "$seeds"/* "$work"/
    log="$build/fuzz_$target.log"
    if (cd "$build" && ./fuzz_"$target" "work_$target" -max_total_time="$seconds" -timeout=10 \
            -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 >"fuzz_$target.log" 2>&1); then
        echo "fuzz_$target: clean, $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') inputs in ${seconds} s"
    else
        echo "fuzz_$target: FAILED (log: $log)"
        tail -n 40 "$log"
        status=1
    fi
done
exit $status
