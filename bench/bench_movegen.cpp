// Micro-benchmarks of the rules code on the host (Google Benchmark): move
// generation into a list, bulk counting, and a small perft, on a few
// positions. Numbers go to stdout or to JSON with --benchmark_out.
#include <benchmark/benchmark.h>

#include "chess/io/fen.hpp"
#include "chess/perft.hpp"

using namespace chess;

namespace {

const char* const FENS[] = {START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};

void BM_GenerateList(benchmark::State& state) {
    const Position p = parse_fen(FENS[state.range(0)]);
    const Attacks at = host_attacks();
    for (auto _ : state) {
        MoveList list;
        generate_moves(p, at, list);
        benchmark::DoNotOptimize(list.size);
    }
}

void BM_CountMoves(benchmark::State& state) {
    const Position p = parse_fen(FENS[state.range(0)]);
    const Attacks at = host_attacks();
    for (auto _ : state) benchmark::DoNotOptimize(count_moves(p, at));
}

void BM_Perft(benchmark::State& state) {
    Position p = parse_fen(FENS[state.range(0)]);
    const Attacks at = host_attacks();
    uint64_t nodes = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(p);  // the position may have changed: no hoisting
        nodes += perft(p, at, 4);
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_GenerateList)->DenseRange(0, 2);
BENCHMARK(BM_CountMoves)->DenseRange(0, 2);
BENCHMARK(BM_Perft)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
