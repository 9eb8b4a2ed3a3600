// A one-file perft driver over the rules header alone, for instruction
// counts and quick timings of rules changes: bench/insn_count.sh and
// bench/stats_insn_count.sh build it from any source tree (this one or an
// older checkout) in seconds.
// Usage: perft_leaf [CASE] [EXTRA_DEPTH] [stats]   (CASE -1: all; 9: none,
// which leaves only the table set-up, for subtracting; `stats`: perft
// statistics of every ply instead of the bulk count)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "chess/stats.hpp"

namespace {

// The last ply's node count of perft statistics, every ply classified.
uint64_t stats_leaves(const chess::Position& p, const chess::Attacks& at, int depth) {
    chess::PerftStats rows[16];
    chess::perft_stats(p, at, depth, rows);
    return rows[depth - 1].c[chess::STAT_NODES];
}

}  // namespace

int main(int argc, char** argv) {
    using namespace chess;
    struct Case {
        const char* name;
        const char* fen;
        int depth;
        uint64_t nodes;
    };
    const Case cases[] = {
        {"start", START_FEN, 5, 4865609},
        {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603},
        {"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11030083},
        {"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292},
    };
    const int which = argc > 1 ? std::atoi(argv[1]) : -1, extra = argc > 2 ? std::atoi(argv[2]) : 0;
    const bool stats = argc > 3 && std::strcmp(argv[3], "stats") == 0;
    const Attacks at = host_attacks();
    int status = 0;
    for (int i = 0; i < 4; ++i) {
        if (which >= 0 && which != i) continue;
        const Case& c = cases[i];
        const auto start = std::chrono::steady_clock::now();
        const Position root = parse_fen(c.fen);
        const uint64_t n = stats ? stats_leaves(root, at, c.depth + extra) : perft(root, at, c.depth + extra);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const bool ok = extra != 0 || n == c.nodes;
        status |= !ok;
        std::printf("%s depth %d: %llu nodes%s, %.3f s, %.0f M nodes/s\n", c.name, c.depth + extra,
                    static_cast<unsigned long long>(n), ok ? "" : " (WRONG)", s, n / s / 1e6);
    }
    return status;
}
